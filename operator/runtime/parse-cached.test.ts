import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { PARSES_KEPT_PER_SCHEMA, safeParseCached } from './parse-cached.ts';

const schema = z.object({ metadata: z.object({ name: z.string() }), spec: z.object({ online: z.boolean().default(false) }) });

describe('safeParseCached', () => {
  it('parses an object once, and a replaced object again', () => {
    const cached = { metadata: { name: 'host-0' }, spec: {} };
    const first = safeParseCached(schema, cached);
    expect(first.success && first.data).toEqual({ metadata: { name: 'host-0' }, spec: { online: false } });
    expect(safeParseCached(schema, cached)).toBe(first);
    const replaced = { metadata: { name: 'host-0' }, spec: { online: true } };
    const second = safeParseCached(schema, replaced);
    expect(second).not.toBe(first);
    expect(second.success && second.data.spec.online).toBe(true);
  });

  it('keeps only the most recently used parses, so it holds no copy of every cached object', () => {
    const host = (name: string) => ({ metadata: { name }, spec: {} });
    const oldest = host('oldest');
    const reused = host('reused');
    const firstOfOldest = safeParseCached(schema, oldest);
    const firstOfReused = safeParseCached(schema, reused);
    for (let i = 0; i < PARSES_KEPT_PER_SCHEMA - 1; i++) {
      safeParseCached(schema, host(`filler-${i}`));
      if (i === 0) expect(safeParseCached(schema, reused)).toBe(firstOfReused);
    }
    expect(safeParseCached(schema, reused)).toBe(firstOfReused);
    const again = safeParseCached(schema, oldest);
    expect(again).not.toBe(firstOfOldest);
    expect(again.data).toEqual(firstOfOldest.data);
  });

  it('holds one version of each name: a replaced version is let go when the new one is parsed', () => {
    const replaced = { metadata: { namespace: 'ns', name: 'schema-0' }, spec: {} };
    const first = safeParseCached(schema, replaced);
    safeParseCached(schema, { metadata: { namespace: 'ns', name: 'schema-0' }, spec: { online: true } });
    expect(safeParseCached(schema, replaced)).not.toBe(first);
  });

  it('parses an object without a name every time', () => {
    const nameless = { metadata: {}, spec: {} };
    expect(safeParseCached(schema, nameless)).not.toBe(safeParseCached(schema, nameless));
  });

  it('keeps one memo per schema', () => {
    const other = z.object({ metadata: z.object({ name: z.string() }) });
    const cached = { metadata: { name: 'host-1' }, spec: {} };
    expect(safeParseCached(schema, cached).data).toHaveProperty('spec');
    expect(safeParseCached(other, cached).data).not.toHaveProperty('spec');
  });

  it('remembers a failed parse with its issues, and passes non-objects straight through', () => {
    const broken = { metadata: { name: 'host-3' }, spec: { online: 'yes' } };
    const failed = safeParseCached(schema, broken);
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]?.path).toEqual(['spec', 'online']);
    expect(safeParseCached(schema, broken)).toBe(failed);
    expect(safeParseCached(schema, undefined).success).toBe(false);
  });

  it('under jest, freezes what it returns, so a caller that changes the shared parse fails its test', () => {
    const parsed = safeParseCached(schema, { metadata: { name: 'host-2' }, spec: {} });
    expect(() => { (parsed.data as { spec: { online: boolean } }).spec.online = true; }).toThrow(TypeError);
  });
});
