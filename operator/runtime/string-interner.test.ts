import { describe, expect, it } from '@jest/globals';
import { StringInterner } from './string-interner.ts';

// Whether two equal strings are one heap object cannot be seen from JavaScript: these tests check
// that values are unchanged and what the table holds; the benchmark's heap snapshot shows the
// copies gone (test/bench/README.md).
function fresh(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

describe('StringInterner', () => {
  it('puts the same strings back, so every object reads exactly what it held', () => {
    const interner = new StringInterner({ maxEntries: 100, maxLength: 64 });
    const first = { metadata: { namespace: fresh('metal3'), labels: { a: fresh('x') } }, spec: { nics: [fresh('eth0'), { name: fresh('eth1') }] } };
    const second = { metadata: { namespace: fresh('metal3'), labels: { a: fresh('x') } }, spec: { nics: [fresh('eth0'), { name: fresh('eth1') }], online: true, count: 3 } };
    const before = structuredClone(second);
    interner.internAll(first);
    expect(interner.internAll(second)).toEqual(before);
  });

  it('keeps one entry per distinct short string and empties itself at its bound', () => {
    const interner = new StringInterner({ maxEntries: 3, maxLength: 8 });
    const seen: string[] = [];
    const remember = (text: string): string => {
      const value = interner.intern(text);
      seen.push(value);
      return value;
    };
    expect(remember('a')).toBe('a');
    remember('b');
    remember('c');
    // A fourth distinct string empties the table first, then starts it again.
    remember('d');
    expect(interner.size).toBe(1);
    remember('a');
    expect(interner.size).toBe(2);
  });

  it('does not keep long strings', () => {
    const interner = new StringInterner({ maxEntries: 10, maxLength: 4 });
    interner.intern('certificate');
    interner.intern('abc');
    expect(interner.size).toBe(1);
  });

  it('leaves frozen parts alone', () => {
    const interner = new StringInterner({ maxEntries: 10, maxLength: 64 });
    const frozen = Object.freeze({ name: fresh('host-0') });
    const object = { metadata: frozen, spec: { image: fresh('url') } };
    expect(() => interner.internAll(object)).not.toThrow();
    expect(interner.size).toBe(1);
  });
});
