import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { deleteIpamNamespace } from '../../support/ipam-namespace.ts';
import { installIpamCrds } from '../../support/ipam-crds.ts';
import { startIpamProcess, type IpamProcess } from '../../support/ipam-process.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  ADDRESSES, CAPI_ADDRESSES, CAPI_CLAIMS, CLAIMS, IpamObjects, POOLS,
  type CapiIpAddressObject, type IpAddressObject, type IpClaimObject, type IpPoolObject,
} from './objects.ts';

jest.setTimeout(300_000);

const WAIT = { timeoutMs: 60_000, intervalMs: 250 };

interface CapiClaim { status?: { addressRef?: { name?: string }; conditions?: { type: string; status: string; reason: string }[] } }

/** The IPAM process (with its ServiceAccount's token) serving pools on the real API server. */
describe('IP address manager', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let objects: IpamObjects;
  let ipam: IpamProcess;

  beforeAll(async () => {
    await installIpamCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'ipam');
    objects = new IpamObjects(kubectl, namespace);
    ipam = startIpamProcess({ env, namespace, label: namespace });
  });

  afterAll(async () => {
    await ipam?.stop();
    if (namespace) await deleteIpamNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  const allocate = async (claim: string) => {
    await objects.apply([objects.claimObject(claim, 'pool-a')]);
    return waitFor(() => objects.allocated(claim), { ...WAIT, what: `${claim} to get an address` });
  };

  it('hands out the lowest free addresses of ranges and subnets, keeps pre-allocations, and reports a full pool', async () => {
    await objects.pool('pool-a', {
      namePrefix: 'pool-a', prefix: 24, gateway: '192.168.10.1', dnsServers: ['192.168.10.53'],
      preAllocations: { reserved: '192.168.10.11' },
      pools: [
        { start: '192.168.10.10', end: '192.168.10.11' },
        // Only .1 and .2 are usable: .0 is the network, .3 the broadcast address.
        { subnet: '192.168.20.0/30', prefix: 30, gateway: '192.168.20.254', dnsServers: ['192.168.20.53'] },
      ],
    });
    const first = await allocate('first');
    expect(first.metadata.name).toBe('pool-a-192-168-10-10');
    expect(first.spec).toEqual({ address: '192.168.10.10', prefix: 24, gateway: '192.168.10.1', dnsServers: ['192.168.10.53'],
      claim: { name: 'first', namespace }, pool: { name: 'pool-a', namespace } });
    expect(first.metadata.finalizers).toEqual(['ipaddress.ipam.metal3.io']);
    expect(first.metadata.ownerReferences?.map((owner) => `${owner.kind}/${owner.name}`)).toEqual(['IPPool/pool-a', 'IPClaim/first']);

    // .11 is kept for "reserved": the next claim moves on to the subnet and gets its settings.
    const second = await allocate('second');
    expect(second.spec).toMatchObject({ address: '192.168.20.1', prefix: 30, gateway: '192.168.20.254', dnsServers: ['192.168.20.53'] });
    const reserved = await allocate('reserved');
    expect(reserved.metadata.name).toBe('pool-a-192-168-10-11');
    expect((await allocate('third')).spec.address).toBe('192.168.20.2');

    const claimOf = await objects.get<IpClaimObject>(CLAIMS, 'first');
    expect(claimOf.metadata.finalizers).toContain('ipclaim.ipam.metal3.io');
    const pool = await waitFor(async () => {
      const current = await objects.get<IpPoolObject>(POOLS, 'pool-a');
      return Object.keys(current.status?.indexes ?? {}).length === 4 ? current : undefined;
    }, { ...WAIT, what: 'pool-a status.indexes to list four claims' });
    expect(pool.status?.indexes).toEqual({ first: '192.168.10.10', reserved: '192.168.10.11', second: '192.168.20.1', third: '192.168.20.2' });
    expect(pool.metadata.finalizers).toContain('ippool.ipam.metal3.io');

    // The pool is full: the claim says why, with a Warning event and a log line.
    await objects.apply([objects.claimObject('fourth', 'pool-a')]);
    const message = await waitFor(async () => (await objects.get<IpClaimObject>(CLAIMS, 'fourth')).status?.errorMessage,
      { ...WAIT, what: 'fourth to report the full pool' });
    expect(message).toBe('no free address left in the pool (ranges 192.168.10.10-192.168.10.11, 192.168.20.1-192.168.20.2 are all allocated)');
    const events = await waitFor(async () => {
      const found = await objects.eventsAbout('fourth');
      return found.length > 0 ? found : undefined;
    }, { ...WAIT, what: 'a Warning event about fourth' });
    expect(events[0]).toMatchObject({ type: 'Warning', reason: 'PoolExhausted', note: message });
    expect(readFileSync(ipam.logPath, 'utf8')).toContain(message);
    expect((await objects.list<IpAddressObject>(ADDRESSES)).map((address) => address.spec.address).sort())
      .toEqual(['192.168.10.10', '192.168.10.11', '192.168.20.1', '192.168.20.2']);
  });

  it('releases a deleted claim\'s address, which the waiting claim then gets', async () => {
    await objects.delete(CLAIMS, 'first');
    await waitFor(async () => ((await objects.find(CLAIMS, 'first')) ? undefined : true), { ...WAIT, what: 'claim first to be gone' });
    const fourth = await waitFor(() => objects.allocated('fourth'), { ...WAIT, what: 'fourth to get the freed address' });
    expect(fourth.metadata.name).toBe('pool-a-192-168-10-10');
    expect(fourth.spec.claim.name).toBe('fourth');
    expect((await objects.get<IpClaimObject>(CLAIMS, 'fourth')).status?.errorMessage).toBeUndefined();
    const indexes = await waitFor(async () => {
      const current = (await objects.get<IpPoolObject>(POOLS, 'pool-a')).status?.indexes ?? {};
      return 'first' in current ? undefined : current;
    }, { ...WAIT, what: 'first to leave status.indexes' });
    expect(indexes.fourth).toBe('192.168.10.10');
  });

  it('lets an IPAddress whose claim is gone be deleted, despite its finalizer', async () => {
    await objects.apply([{ apiVersion: 'ipam.metal3.io/v1alpha1', kind: 'IPAddress',
      metadata: { name: 'pool-a-192-168-10-99', namespace, finalizers: ['ipaddress.ipam.metal3.io'] },
      spec: { address: '192.168.10.99', prefix: 24, claim: { name: 'ghost', namespace }, pool: { name: 'pool-a', namespace } } }]);
    await objects.delete(ADDRESSES, 'pool-a-192-168-10-99');
    await waitFor(async () => ((await objects.find(ADDRESSES, 'pool-a-192-168-10-99')) ? undefined : true),
      { ...WAIT, what: 'the stray IPAddress to be gone' });
  });

  it('serves a Cluster API IPAddressClaim from an IPv6 pool, and keeps the pool until its addresses are released', async () => {
    await objects.pool('pool-v6', { namePrefix: 'v6', gateway: 'fd00:10::1', dnsServers: ['fd00:10::53'],
      pools: [{ start: 'fd00:10::10', end: 'fd00:10::1f', subnet: 'fd00:10::/64' }] });
    await objects.apply([objects.capiClaimObject('machine-a', 'pool-v6')]);
    const claim = await waitFor(async () => {
      const current = await objects.get<CapiClaim>(CAPI_CLAIMS, 'machine-a');
      return current.status?.addressRef?.name ? current : undefined;
    }, { ...WAIT, what: 'machine-a to get an address' });
    expect(claim.status?.addressRef?.name).toBe('v6-fd00-10--10');
    expect(claim.status?.conditions?.find((condition) => condition.type === 'Ready')).toMatchObject({ status: 'True' });
    const address = await objects.get<CapiIpAddressObject>(CAPI_ADDRESSES, 'v6-fd00-10--10');
    expect(address.spec).toEqual({ address: 'fd00:10::10', prefix: 64, gateway: 'fd00:10::1', claimRef: { name: 'machine-a' },
      poolRef: { apiGroup: 'ipam.metal3.io', kind: 'IPPool', name: 'pool-v6' } });
    expect(address.metadata.finalizers).toEqual(['ipam.metal3.io/ipaddress']);

    // A Metal3 claim on the same pool skips the address the Cluster API one holds.
    await objects.apply([objects.claimObject('metal3-b', 'pool-v6')]);
    expect((await waitFor(() => objects.allocated('metal3-b'), { ...WAIT, what: 'metal3-b to get an address' })).spec.address).toBe('fd00:10::11');

    await objects.delete(POOLS, 'pool-v6');
    await objects.delete(CLAIMS, 'metal3-b');
    await waitFor(async () => ((await objects.find(ADDRESSES, 'v6-fd00-10--11')) ? undefined : true), { ...WAIT, what: 'metal3-b\'s address to go' });
    // machine-a still holds an address: the pool stays, being deleted.
    const deleting = await objects.get<IpPoolObject>(POOLS, 'pool-v6');
    expect(deleting.metadata.deletionTimestamp).toBeDefined();
    expect(deleting.metadata.finalizers).toContain('ippool.ipam.metal3.io');

    await objects.delete(CAPI_CLAIMS, 'machine-a');
    await waitFor(async () => ((await objects.find(POOLS, 'pool-v6')) ? undefined : true), { ...WAIT, what: 'pool-v6 to be gone' });
    expect(await objects.find(CAPI_ADDRESSES, 'v6-fd00-10--10')).toBeUndefined();
    expect(await objects.find(CAPI_CLAIMS, 'machine-a')).toBeUndefined();
  });

  it('says so when a claim names no existing pool, and lets it be deleted', async () => {
    await objects.apply([objects.claimObject('lost', 'no-such-pool')]);
    const message = await waitFor(async () => (await objects.get<IpClaimObject>(CLAIMS, 'lost')).status?.errorMessage,
      { ...WAIT, what: 'lost to report the missing pool' });
    expect(message).toBe(`IPPool no-such-pool not found in namespace ${namespace}`);
    expect(await waitFor(async () => (await objects.eventsAbout('lost'))[0], { ...WAIT, what: 'a Warning event about lost' }))
      .toMatchObject({ type: 'Warning', reason: 'PoolNotReady', note: message });
    await objects.delete(CLAIMS, 'lost');
    await waitFor(async () => ((await objects.find(CLAIMS, 'lost')) ? undefined : true), { ...WAIT, what: 'lost to be gone' });
  });
});
