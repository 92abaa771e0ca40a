import { describe, it, expect } from '@jest/globals';
import { JsonPatchError, applyJsonPatch, applyMergePatch } from './patches.ts';

describe('applyMergePatch', () => {
  it('merges objects, replaces lists and deletes on null', () => {
    const target = { a: { b: 1, c: 2 }, list: [1, 2], gone: 'x' };
    expect(applyMergePatch(target, { a: { c: 3 }, list: [9], gone: null })).toEqual({ a: { b: 1, c: 3 }, list: [9] });
    expect(target.a.c).toBe(2);
  });
});

describe('applyJsonPatch', () => {
  it('adds, removes and replaces along JSON pointers, without touching the input', () => {
    const doc = { metadata: { finalizers: ['a', 'b'] } };
    const out = applyJsonPatch(doc, [
      { op: 'add', path: '/metadata/finalizers/-', value: 'c' },
      { op: 'remove', path: '/metadata/finalizers/0' },
      { op: 'replace', path: '/metadata/finalizers/0', value: 'B' },
      { op: 'add', path: '/metadata/labels', value: { 'a~b/c': '1' } },
    ]);
    expect(out).toEqual({ metadata: { finalizers: ['B', 'c'], labels: { 'a~b/c': '1' } } });
    expect(doc.metadata.finalizers).toEqual(['a', 'b']);
    expect(applyJsonPatch(out, [{ op: 'remove', path: '/metadata/labels/a~0b~1c' }])).toEqual({
      metadata: { finalizers: ['B', 'c'], labels: {} },
    });
  });

  it('fails the whole patch when a test does not hold or a path is missing', () => {
    const doc = { metadata: { finalizers: ['a'] } };
    expect(() => applyJsonPatch(doc, [{ op: 'test', path: '/metadata/finalizers/0', value: 'b' }])).toThrow(JsonPatchError);
    expect(() => applyJsonPatch(doc, [{ op: 'remove', path: '/metadata/finalizers/3' }])).toThrow(JsonPatchError);
    expect(() => applyJsonPatch(doc, [{ op: 'replace', path: '/spec/x', value: 1 }])).toThrow(JsonPatchError);
  });
});
