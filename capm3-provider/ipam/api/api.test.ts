import { describe, expect, it } from '@jest/globals';
import { ipamGeneratedFiles } from './crd/generated-files.ts';
import { ipAddressSchema, ipClaimSchema, ipPoolSchema } from './index.ts';

describe('ipam.metal3.io schemas', () => {
  it('accept an upstream-style IPPool with IPv4 and IPv6 ranges, pre-allocations and defaults', () => {
    const pool = ipPoolSchema.parse({
      metadata: { name: 'pool-1', namespace: 'ns' },
      spec: {
        clusterName: 'c1', namePrefix: 'test-prov', prefix: 24, gateway: '192.168.0.1', dnsServers: ['8.8.8.8'],
        pools: [{ start: '192.168.0.10', end: '192.168.0.30' }, { subnet: 'fd00::/120', prefix: 120, gateway: 'fd00::1' }],
        preAllocations: { 'claim-1': '192.168.0.12' },
      },
      status: { indexes: { 'claim-1': '192.168.0.12' } },
    });
    expect(pool.spec.pools?.[1]?.subnet).toBe('fd00::/120');
  });

  it('reject addresses and subnets that are not IPs, and a missing namePrefix', () => {
    const base = { metadata: { name: 'p' }, spec: { namePrefix: 'x' } };
    expect(ipPoolSchema.safeParse({ ...base, spec: { namePrefix: 'x', gateway: '192.168.0.256' } }).success).toBe(false);
    expect(ipPoolSchema.safeParse({ ...base, spec: { namePrefix: 'x', pools: [{ subnet: '10.0.0.0/33' }] } }).success).toBe(false);
    expect(ipPoolSchema.safeParse({ ...base, spec: { namePrefix: 'x', pools: [{ subnet: '10.0.0.0' }] } }).success).toBe(false);
    expect(ipPoolSchema.safeParse({ metadata: {}, spec: {} }).success).toBe(false);
    expect(ipPoolSchema.safeParse(base).success).toBe(true);
  });

  it('read an IPClaim and an IPAddress as upstream writes them', () => {
    const claim = ipClaimSchema.parse({ metadata: { name: 'c' }, spec: { pool: { name: 'pool-1' } },
      status: { address: { name: 'test-prov-192-168-0-10', namespace: 'ns' } } });
    expect(claim.status?.address?.name).toBe('test-prov-192-168-0-10');
    const address = ipAddressSchema.parse({ metadata: { name: 'a' },
      spec: { claim: { name: 'c' }, pool: { name: 'pool-1' }, address: '192.168.0.10', prefix: 24, gateway: '192.168.0.1' } });
    expect(address.spec.address).toBe('192.168.0.10');
  });

  it('generate the three CRDs with upstream names and the API server checking IPs with CEL', () => {
    const files = ipamGeneratedFiles();
    expect(files.map((file) => file.path)).toEqual([
      'deploy/ipam/crds/ipam.metal3.io_ipaddresses.yaml', 'deploy/ipam/crds/ipam.metal3.io_ipclaims.yaml',
      'deploy/ipam/crds/ipam.metal3.io_ippools.yaml', 'deploy/ipam/crds/kustomization.yaml',
    ]);
    const pools = files[2]?.content ?? '';
    expect(pools).toContain('rule: isIP(self)');
    expect(pools).toContain('rule: isCIDR(self)');
    expect(pools).toContain('- m3ippool');
  });
});
