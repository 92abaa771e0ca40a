import { describe, it, expect } from '@jest/globals';
import { bmcAccessFor } from './bmc-access-for.ts';
import { BMCAddressError } from './bmc-address-error.ts';

// Deterministic so a failure reproduces; mulberry32.
function randomGenerator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEEDS = ['ipmi://', 'redfish+https://', 'idrac-virtualmedia://', 'libvirt:', '[fd00::1]', '192.168.0.1', 'bmc.example.com'];
const FRAGMENTS = [':', '/', '//', '[', ']', '%', '%2', '%25', '%zz', '?', '#', '@', '+', '.', '-', '_', ' ', '\n', 'é', '::', '623', 'a', 'Z', '9', '\u0000', ';', '='];

function randomAddress(next: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  let text = next() < 0.7 ? pick(SEEDS) : '';
  const length = Math.floor(next() * 12);
  for (let i = 0; i < length; i++) text += pick([...FRAGMENTS, ...SEEDS]);
  return text;
}

describe('BMC address parsing under random input', () => {
  it('returns access details or a BMCAddressError, and never throws', () => {
    const next = randomGenerator(20260820);
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const address = randomAddress(next);
      const result = bmcAccessFor({ address, disableCertificateVerification: next() < 0.5 });
      if (result.ok) {
        accepted++;
        const info = result.access.driverInfo({ username: 'u', password: 'p' });
        expect(typeof result.access.driver).toBe('string');
        expect(Object.values(info).every((value) => typeof value === 'string' || typeof value === 'boolean')).toBe(true);
      } else {
        expect(result.error).toBeInstanceOf(BMCAddressError);
        expect(result.error.message.length).toBeGreaterThan(0);
      }
    }
    // The generator must exercise both paths to mean anything.
    expect(accepted).toBeGreaterThan(100);
    expect(accepted).toBeLessThan(20_000);
  });
});
