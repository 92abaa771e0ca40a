import { describe, it, expect } from '@jest/globals';
import { V1MicroTime } from '@kubernetes/client-node';
import { formatMicroTime } from './micro-time.ts';

describe('formatMicroTime', () => {
  it('writes six fractional digits, like V1MicroTime', () => {
    const ms = Date.parse('2026-03-04T05:06:07.089Z');
    expect(formatMicroTime(ms)).toBe('2026-03-04T05:06:07.089000Z');
    expect(formatMicroTime(new Date(ms))).toBe(new V1MicroTime(ms).toISOString());
    expect(formatMicroTime(ms)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });
});
