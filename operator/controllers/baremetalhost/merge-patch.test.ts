import { describe, expect, it } from '@jest/globals';
import { changedFields, createMergePatch } from './merge-patch.ts';

describe('createMergePatch', () => {
  it('is undefined for equal documents, null and missing being the same', () => {
    expect(createMergePatch({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 2] } })).toBeUndefined();
    expect(createMergePatch({ end: null }, {})).toBeUndefined();
    expect(createMergePatch({}, { end: null, x: undefined })).toBeUndefined();
  });

  it('sends changed and new fields, nulls for removed ones, nested', () => {
    expect(createMergePatch({ a: 1, b: { c: 1, d: 2 }, gone: 'x' }, { a: 2, b: { c: 1 }, added: true })).toEqual({
      a: 2,
      b: { d: null },
      gone: null,
      added: true,
    });
  });

  it('replaces arrays whole', () => {
    expect(createMergePatch({ list: [{ type: 'A' }] }, { list: [{ type: 'A' }, { type: 'B' }] })).toEqual({ list: [{ type: 'A' }, { type: 'B' }] });
  });

  it('turns an object into a scalar and back', () => {
    expect(createMergePatch({ a: { b: 1 } }, { a: 'x' })).toEqual({ a: 'x' });
    expect(createMergePatch({ a: 'x' }, { a: { b: 1 } })).toEqual({ a: { b: 1 } });
  });
});

describe('changedFields', () => {
  it('names the leaves a patch sets or clears, down to three levels', () => {
    const patch = createMergePatch(
      { provisioning: { state: 'available', image: { url: 'a' } }, poweredOn: false },
      { provisioning: { state: 'provisioning', image: { url: 'b' } }, poweredOn: false, operationHistory: { provision: { start: 't', end: null } }, hardware: { cpu: { arch: 'x86_64', count: 8 } } },
    );
    expect(changedFields(patch)).toEqual(['provisioning.state', 'provisioning.image.url', 'operationHistory.provision.start', 'operationHistory.provision.end', 'hardware.cpu.arch', 'hardware.cpu.count']);
    expect(changedFields({ hardware: { cpu: { flags: ['a'] } } }, 2)).toEqual(['hardware.cpu']);
    expect(changedFields({ provisioning: { image: null } })).toEqual(['provisioning.image']);
    expect(changedFields(undefined)).toEqual([]);
  });
});
