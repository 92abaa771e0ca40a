import { describe, expect, it } from '@jest/globals';
import { AllocationError, allocate } from './allocate.ts';
import type { PoolSettings } from './allocate.ts';
import { resolveRange } from './ranges.ts';

function failure(run: () => unknown): AllocationError {
  try {
    run();
  } catch (error) {
    if (error instanceof AllocationError) return error;
    throw error;
  }
  throw new Error('expected an AllocationError');
}

describe('resolveRange', () => {
  it('takes start..end as given', () => {
    expect(resolveRange({ start: '10.0.0.5', end: '10.0.0.7' }, 0)).toEqual({ family: 4, first: 0x0a000005n, last: 0x0a000007n });
  });

  it('skips the network and IPv4 broadcast addresses of a subnet', () => {
    expect(resolveRange({ subnet: '192.168.1.0/30' }, 0)).toEqual({ family: 4, first: 0xc0a80101n, last: 0xc0a80102n });
    // IPv6 has no broadcast: only the subnet-router address is skipped.
    expect(resolveRange({ subnet: 'fd00::/126' }, 0)).toEqual({ family: 6, first: 0xfd00n << 112n | 1n, last: 0xfd00n << 112n | 3n });
    // /31 and /32 have no network or broadcast address to spare (RFC 3021).
    expect(resolveRange({ subnet: '10.0.0.4/31' }, 0)).toEqual({ family: 4, first: 0x0a000004n, last: 0x0a000005n });
  });

  it('bounds a start by its subnet', () => {
    expect(resolveRange({ start: '192.168.1.250', subnet: '192.168.1.0/24' }, 0).last).toBe(0xc0a801fen);
  });

  it('names the entry and the problem of a bad range', () => {
    expect(() => resolveRange({ start: '10.0.0.9', end: '10.0.0.1' }, 2)).toThrow('pools[2]: end 10.0.0.1 is before start 10.0.0.9');
    expect(() => resolveRange({ start: '10.0.1.1', subnet: '10.0.0.0/24' }, 0)).toThrow('pools[0]: start 10.0.1.1 is outside subnet 10.0.0.0/24');
    expect(() => resolveRange({ start: '10.0.0.1', end: 'fd00::1' }, 1)).toThrow('pools[1]: end fd00::1 is not an IPv4 address');
    expect(() => resolveRange({ end: '10.0.0.1' }, 0)).toThrow('pools[0]: needs a start address or a subnet');
  });
});

describe('allocate', () => {
  const pool: PoolSettings = {
    prefix: 24, gateway: '192.168.0.1', dnsServers: ['8.8.8.8'],
    pools: [
      { start: '192.168.0.10', end: '192.168.0.12' },
      { start: '192.168.1.10', end: '192.168.1.11', prefix: 25, gateway: '192.168.1.1', dnsServers: ['1.1.1.1'] },
    ],
  };

  it('hands out the lowest free address with the pool defaults', () => {
    expect(allocate({ pool, claimName: 'a', inUse: [] }))
      .toEqual({ address: '192.168.0.10', prefix: 24, gateway: '192.168.0.1', dnsServers: ['8.8.8.8'] });
    expect(allocate({ pool, claimName: 'b', inUse: ['192.168.0.10', '192.168.0.12'] }).address).toBe('192.168.0.11');
  });

  it('moves to the next range when one is full, with that range\'s own settings', () => {
    expect(allocate({ pool, claimName: 'd', inUse: ['192.168.0.10', '192.168.0.11', '192.168.0.12'] }))
      .toEqual({ address: '192.168.1.10', prefix: 25, gateway: '192.168.1.1', dnsServers: ['1.1.1.1'] });
  });

  it('reports a full pool as PoolExhausted with the ranges', () => {
    const error = failure(() => allocate({ pool, claimName: 'z',
      inUse: ['192.168.0.10', '192.168.0.11', '192.168.0.12', '192.168.1.10', '192.168.1.11'] }));
    expect(error.reason).toBe('PoolExhausted');
    expect(error.message).toBe('no free address left in the pool (ranges 192.168.0.10-192.168.0.12, 192.168.1.10-192.168.1.11 are all allocated)');
  });

  it('gives a claim its pre-allocation and keeps it from every other claim', () => {
    const withPre: PoolSettings = { ...pool, preAllocations: { special: '192.168.1.11', first: '192.168.0.10' } };
    expect(allocate({ pool: withPre, claimName: 'special', inUse: [] }))
      .toEqual({ address: '192.168.1.11', prefix: 25, gateway: '192.168.1.1', dnsServers: ['1.1.1.1'] });
    expect(allocate({ pool: withPre, claimName: 'other', inUse: [] }).address).toBe('192.168.0.11');
    const outside = failure(() => allocate({ pool: { ...pool, preAllocations: { x: '10.9.9.9' } }, claimName: 'x', inUse: [] }));
    expect(outside.message).toBe('pre-allocated address 10.9.9.9 is outside the pool\'s ranges');
  });

  it('serves a requested address only when it is free', () => {
    expect(allocate({ pool, claimName: 'r', inUse: [], requestedAddress: '192.168.0.12' }).address).toBe('192.168.0.12');
    expect(failure(() => allocate({ pool, claimName: 'r', inUse: ['192.168.0.12'], requestedAddress: '192.168.0.12' })).message)
      .toBe('requested address 192.168.0.12 is already allocated to another claim');
  });

  it('allocates IPv6 from a subnet, inheriting the subnet prefix, and compares any text form', () => {
    const v6: PoolSettings = { pools: [{ subnet: 'fd00:1::/120', gateway: 'fd00:1::ff' }] };
    expect(allocate({ pool: v6, claimName: 'a', inUse: [] })).toEqual({ address: 'fd00:1::1', prefix: 120, gateway: 'fd00:1::ff' });
    expect(allocate({ pool: v6, claimName: 'b', inUse: ['FD00:1:0::0001'] }).address).toBe('fd00:1::2');
  });

  it('scans a huge IPv6 range without walking it', () => {
    const wide: PoolSettings = { allocationStrategy: 'random', pools: [{ subnet: 'fd00::/64' }] };
    const address = allocate({ pool: wide, claimName: 'a', inUse: [], random: () => 0.5 }).address;
    expect(address).toBe('fd00::8000:0:0:0');
    expect(allocate({ pool: wide, claimName: 'b', inUse: [address], random: () => 0.5 }).address).toBe('fd00::8000:0:0:1');
  });

  it('wraps around in random mode to find the one free address', () => {
    const small: PoolSettings = { allocationStrategy: 'random', pools: [{ start: '10.0.0.1', end: '10.0.0.4' }] };
    expect(allocate({ pool: small, claimName: 'a', inUse: ['10.0.0.3', '10.0.0.4', '10.0.0.2'], random: () => 0.9 }).address)
      .toBe('10.0.0.1');
  });

  it('says what is wrong with a pool that cannot allocate', () => {
    expect(failure(() => allocate({ pool: { pools: [] }, claimName: 'a', inUse: [] })).message)
      .toBe('invalid pool: it has no address ranges (spec.pools is empty)');
    const bad = failure(() => allocate({ pool: { pools: [{ start: '10.0.0.9', end: '10.0.0.1' }] }, claimName: 'a', inUse: [] }));
    expect(bad.reason).toBe('AllocationFailed');
    expect(bad.message).toBe('invalid pool: pools[0]: end 10.0.0.1 is before start 10.0.0.9');
    expect(failure(() => allocate({ pool: { prefix: 64, pools: [{ start: '10.0.0.1', end: '10.0.0.2' }] }, claimName: 'a', inUse: [] })).message)
      .toBe('invalid pool: prefix 64 is too long for IPv4 address 10.0.0.1');
  });
});
