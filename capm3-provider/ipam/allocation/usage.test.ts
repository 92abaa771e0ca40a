import { describe, expect, it } from '@jest/globals';
import { InvalidPoolError } from './ranges.ts';
import { poolUsage } from './usage.ts';

describe('poolUsage', () => {
  it('sizes the ranges as allocation resolves them and counts the held addresses in them', () => {
    const pool = { pools: [{ start: '192.168.0.10', end: '192.168.0.19' }, { subnet: '10.0.0.0/29' }] };
    // 10 + 6 usable (network and broadcast of the /29 are never handed out).
    expect(poolUsage(pool, [])).toEqual({ size: 16, allocated: 0 });
    expect(poolUsage(pool, ['192.168.0.10', '10.0.0.6', '192.168.0.200', 'not-an-ip'])).toEqual({ size: 16, allocated: 2 });
  });

  it('counts an address once, in any text form, and overlapping ranges once', () => {
    const pool = { pools: [{ start: 'fd00::1', end: 'fd00::4' }, { start: 'fd00::3', end: 'fd00::8' }, { start: 'fd00::9', end: 'fd00::9' }] };
    expect(poolUsage(pool, ['fd00::3', 'fd00:0:0:0:0:0:0:3', 'fd00::9'])).toEqual({ size: 9, allocated: 2 });
  });

  it('is empty without ranges and throws for a range that cannot work', () => {
    expect(poolUsage({}, ['10.0.0.1'])).toEqual({ size: 0, allocated: 0 });
    expect(() => poolUsage({ pools: [{ start: '10.0.0.9', end: '10.0.0.1' }] }, [])).toThrow(InvalidPoolError);
  });
});
