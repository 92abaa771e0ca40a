import { describe, expect, it } from '@jest/globals';
import { bareMetalHostSchema } from '../../operator/api/index.ts';
import { hostAddresses } from './addresses.ts';

const host = (hardware?: Record<string, unknown>) => bareMetalHostSchema.parse({
  metadata: { name: 'h', namespace: 'ns' }, spec: { online: true }, ...(hardware ? { status: { hardware } } : {}),
});
const nic = (name: string, ip?: string) => ({ name, mac: '00:5a:91:00:00:01', ...(ip ? { ip } : {}) });

describe('hostAddresses', () => {
  it('lists every NIC IP once as InternalIP, then the hostname as Hostname and InternalDNS', () => {
    expect(hostAddresses(host({ hostname: 'worker-a', nics: [nic('eth0', '192.0.2.1'), nic('eth1', 'fd00::1'), nic('eth2', '192.0.2.1'), nic('eth3')] }))).toEqual([
      { type: 'InternalIP', address: '192.0.2.1' },
      { type: 'InternalIP', address: 'fd00::1' },
      { type: 'Hostname', address: 'worker-a' },
      { type: 'InternalDNS', address: 'worker-a' },
    ]);
  });

  it('is empty without hardware details', () => {
    expect(hostAddresses(host())).toEqual([]);
    expect(hostAddresses(host({ nics: [] }))).toEqual([]);
  });

  it('keeps at most 32 addresses (the status schema limit)', () => {
    const nics = Array.from({ length: 40 }, (_, i) => nic(`eth${i}`, `192.0.2.${i + 1}`));
    const addresses = hostAddresses(host({ hostname: 'big', nics }));
    expect(addresses).toHaveLength(32);
    expect(addresses.every((a) => a.type === 'InternalIP')).toBe(true);
  });
});
