import { describe, expect, it } from '@jest/globals';
import { ipPoolSchema } from '../api/index.ts';
import { belongsTo, clusterApiClaims, metal3Claims } from './claim-kinds.ts';
import { poolIndexes } from './pool-status.ts';

const pool = ipPoolSchema.parse({ metadata: { name: 'pool-a', namespace: 'ns', uid: 'pool-uid' }, spec: { namePrefix: 'pool-a' } });
const now = new Date('2026-01-02T03:04:05Z');
const allocation = { address: '192.168.0.10', prefix: 24, gateway: '192.168.0.1', dnsServers: ['8.8.8.8'] };

describe('Metal3 IPClaims', () => {
  const claim = { metadata: { name: 'm3data-pool-a', namespace: 'ns', uid: 'claim-uid', labels: { 'cluster.x-k8s.io/cluster-name': 'c1' } },
    spec: { pool: { name: 'pool-a' } } };

  it('become an ipam.metal3.io IPAddress owned by pool and claim, protected by the upstream finalizer', () => {
    const address = metal3Claims.buildAddress({ pool, claim, name: 'pool-a-192-168-0-10', allocation });
    expect(address).toEqual({
      apiVersion: 'ipam.metal3.io/v1alpha1', kind: 'IPAddress',
      metadata: { name: 'pool-a-192-168-0-10', namespace: 'ns', finalizers: ['ipaddress.ipam.metal3.io'],
        labels: { 'cluster.x-k8s.io/cluster-name': 'c1' },
        ownerReferences: [
          { apiVersion: 'ipam.metal3.io/v1alpha1', kind: 'IPPool', name: 'pool-a', uid: 'pool-uid' },
          { apiVersion: 'ipam.metal3.io/v1alpha1', kind: 'IPClaim', name: 'm3data-pool-a', uid: 'claim-uid' },
        ] },
      spec: { address: '192.168.0.10', prefix: 24, gateway: '192.168.0.1', dnsServers: ['8.8.8.8'],
        pool: { name: 'pool-a', namespace: 'ns' }, claim: { name: 'm3data-pool-a', namespace: 'ns' } },
    });
    const held = metal3Claims.readAddress(address)!;
    expect(held).toMatchObject({ name: 'pool-a-192-168-0-10', poolName: 'pool-a', claimName: 'm3data-pool-a', claimUid: 'claim-uid', deleting: false });
    expect(belongsTo(held, claim)).toBe(true);
    // A claim recreated under the same name is another claim.
    expect(belongsTo(held, { ...claim, metadata: { ...claim.metadata, uid: 'new-uid' } })).toBe(false);
    expect(belongsTo({ ...held, claimUid: undefined }, { ...claim, metadata: { ...claim.metadata, uid: 'new-uid' } })).toBe(true);
  });

  it('show the address or the error in status, clearing the other', () => {
    expect(metal3Claims.poolNameOf(claim)).toBe('pool-a');
    expect(metal3Claims.allocatedStatus(claim, 'pool-a-192-168-0-10', now))
      .toEqual({ address: { name: 'pool-a-192-168-0-10', namespace: 'ns' }, errorMessage: null });
    expect(metal3Claims.failedStatus(claim, { reason: 'PoolExhausted', message: 'full' }, now)).toEqual({ errorMessage: 'full' });
    expect(metal3Claims.failureOf({ ...claim, status: { errorMessage: 'full' } })).toBe('full');
    expect(metal3Claims.addressNameOf({ ...claim, status: { address: { name: 'x' } } })).toBe('x');
  });
});

describe('Cluster API IPAddressClaims', () => {
  const claim = { metadata: { name: 'machine-a', namespace: 'ns', uid: 'c-uid', generation: 1 },
    spec: { poolRef: { apiGroup: 'ipam.metal3.io', kind: 'IPPool', name: 'pool-a' } } };

  it('are ours only when poolRef names an ipam.metal3.io IPPool', () => {
    expect(clusterApiClaims.poolNameOf(claim)).toBe('pool-a');
    expect(clusterApiClaims.poolNameOf({ ...claim, spec: { poolRef: { apiGroup: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool', name: 'pool-a' } } }))
      .toBeUndefined();
  });

  it('become a v1beta2 IPAddress with claimRef, poolRef and prefix, and no DNS (the contract has none)', () => {
    const address = clusterApiClaims.buildAddress({ pool, claim, name: 'pool-a-192-168-0-10', allocation });
    expect(address).toMatchObject({
      apiVersion: 'ipam.cluster.x-k8s.io/v1beta2', kind: 'IPAddress',
      metadata: { finalizers: ['ipam.metal3.io/ipaddress'] },
      spec: { address: '192.168.0.10', prefix: 24, gateway: '192.168.0.1', claimRef: { name: 'machine-a' },
        poolRef: { apiGroup: 'ipam.metal3.io', kind: 'IPPool', name: 'pool-a' } },
    });
    expect((address as unknown as { spec: object }).spec).not.toHaveProperty('dnsServers');
  });

  it('report the outcome in the Ready condition', () => {
    const allocated = clusterApiClaims.allocatedStatus(claim, 'pool-a-192-168-0-10', now);
    expect(allocated).toEqual({ addressRef: { name: 'pool-a-192-168-0-10' }, conditions: [{ type: 'Ready', status: 'True', reason: 'Allocated',
      message: 'address pool-a-192-168-0-10 allocated', lastTransitionTime: '2026-01-02T03:04:05Z', observedGeneration: 1 }] });
    const failed = clusterApiClaims.failedStatus(claim, { reason: 'PoolExhausted', message: 'full' }, now);
    expect(clusterApiClaims.failureOf({ ...claim, status: failed })).toBe('full');
    expect(clusterApiClaims.failureOf({ ...claim, status: allocated })).toBeUndefined();
  });
});

describe('poolIndexes', () => {
  it('maps each claim to its address, leaving out addresses being deleted', () => {
    const held = (claimName: string, address: string, deleting = false) =>
      ({ kind: metal3Claims, name: `p-${address}`, address, poolName: 'p', claimName, claimUid: undefined, deleting, object: { metadata: {} } });
    expect(poolIndexes([held('b', '10.0.0.2'), held('a', '10.0.0.1'), held('gone', '10.0.0.3', true)]))
      .toEqual({ a: '10.0.0.1', b: '10.0.0.2' });
  });
});
