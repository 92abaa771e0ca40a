import { describe, expect, it } from '@jest/globals';
import { defaultAt, defaultsAt } from './defaults-patch.ts';

describe('defaultAt', () => {
  it('adds the first missing parent with the rest nested inside it', () => {
    expect(defaultAt({ spec: {} }, ['spec', 'endpoint', 'port'], 6443)).toEqual([{ op: 'add', path: '/spec/endpoint', value: { port: 6443 } }]);
    expect(defaultAt({}, ['spec', 'endpoint', 'port'], 6443)).toEqual([{ op: 'add', path: '/spec', value: { endpoint: { port: 6443 } } }]);
  });

  it('replaces a zero value, and leaves a set one', () => {
    const isZero = (value: unknown) => value === 0;
    expect(defaultAt({ spec: { port: 0 } }, ['spec', 'port'], 6443, isZero)).toEqual([{ op: 'replace', path: '/spec/port', value: 6443 }]);
    expect(defaultAt({ spec: { port: 443 } }, ['spec', 'port'], 6443, isZero)).toEqual([]);
  });

  it('leaves a parent that is not an object to the schema', () => {
    expect(defaultAt({ spec: 'text' }, ['spec', 'port'], 6443)).toEqual([]);
  });

  it('escapes path segments as JSON Pointer does', () => {
    expect(defaultAt({}, ['a/b~c'], 1)).toEqual([{ op: 'add', path: '/a~1b~0c', value: 1 }]);
  });
});

describe('defaultsAt', () => {
  it('computes each default on the object with the earlier ones applied, so parents are added once', () => {
    const object = { spec: {} };
    expect(defaultsAt(object, [
      { path: ['spec', 'strategy', 'type'], value: 'Reboot' },
      { path: ['spec', 'strategy', 'retryLimit'], value: 1 },
    ])).toEqual([
      { op: 'add', path: '/spec/strategy', value: { type: 'Reboot' } },
      { op: 'add', path: '/spec/strategy/retryLimit', value: 1 },
    ]);
    expect(object).toEqual({ spec: {} });
  });
});
