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
  ADDRESSES, CAPI_ADDRESSES, CAPI_CLAIMS, CLAIMS, IpamObjects,
  type CapiIpAddressObject, type IpAddressObject, type IpClaimObject,
} from './objects.ts';

jest.setTimeout(300_000);

const METAL3_CLAIMS = 30;
const CLUSTER_API_CLAIMS = 6;

interface CapiClaim { metadata: { name: string }; status?: { addressRef?: { name?: string } } }

/**
 * Two IPAM processes without leader election serve one pool at once. Nothing but the API
 * server coordinates them: the IPAddress name is the lock on an address, and a claim's status
 * is written conditionally. The API server's objects show that no address went out twice.
 */
describe('two IPAM processes serving one pool', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let objects: IpamObjects;
  const processes: IpamProcess[] = [];

  beforeAll(async () => {
    await installIpamCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'ipam-race');
    objects = new IpamObjects(kubectl, namespace);
    for (const label of ['one', 'two']) processes.push(startIpamProcess({ env, namespace, label: `${label}-${namespace}` }));
  });

  afterAll(async () => {
    await Promise.all(processes.map((ipam) => ipam.stop()));
    if (namespace) await deleteIpamNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  it(`hand out ${METAL3_CLAIMS + CLUSTER_API_CLAIMS} distinct addresses to as many concurrent claims of both API groups`, async () => {
    await objects.pool('shared', { namePrefix: 'shared', prefix: 24, gateway: '10.20.0.1',
      pools: [{ start: '10.20.0.10', end: '10.20.0.29' }, { subnet: '10.20.1.0/24' }] });
    const metal3 = Array.from({ length: METAL3_CLAIMS }, (_, index) => `claim-${index}`);
    const clusterApi = Array.from({ length: CLUSTER_API_CLAIMS }, (_, index) => `machine-${index}`);
    // One request creates them all, so both processes see a burst of unserved claims.
    await objects.apply([...metal3.map((name) => objects.claimObject(name, 'shared')), ...clusterApi.map((name) => objects.capiClaimObject(name, 'shared'))]);

    const claims = await waitFor(async () => {
      const found = await objects.list<IpClaimObject>(CLAIMS);
      return found.length === METAL3_CLAIMS && found.every((claim) => claim.status?.address?.name) ? found : undefined;
    }, { timeoutMs: 120_000, intervalMs: 500, what: `all ${METAL3_CLAIMS} IPClaims to be served` });
    const capiClaims = await waitFor(async () => {
      const found = await objects.list<CapiClaim>(CAPI_CLAIMS);
      return found.length === CLUSTER_API_CLAIMS && found.every((claim) => claim.status?.addressRef?.name) ? found : undefined;
    }, { timeoutMs: 120_000, intervalMs: 500, what: `all ${CLUSTER_API_CLAIMS} IPAddressClaims to be served` });

    // Addresses made in vain by the slower process are deleted again; wait for the objects to settle.
    const addresses = await waitFor(async () => {
      const found = await objects.list<IpAddressObject>(ADDRESSES);
      return found.length === METAL3_CLAIMS ? found : undefined;
    }, { timeoutMs: 60_000, intervalMs: 500, what: `exactly ${METAL3_CLAIMS} ipam.metal3.io IPAddresses` });
    const capiAddresses = await waitFor(async () => {
      const found = await objects.list<CapiIpAddressObject>(CAPI_ADDRESSES);
      return found.length === CLUSTER_API_CLAIMS ? found : undefined;
    }, { timeoutMs: 60_000, intervalMs: 500, what: `exactly ${CLUSTER_API_CLAIMS} ipam.cluster.x-k8s.io IPAddresses` });

    const all = [...addresses.map((address) => address.spec.address), ...capiAddresses.map((address) => address.spec.address)];
    expect(new Set(all).size).toBe(METAL3_CLAIMS + CLUSTER_API_CLAIMS);
    // The lowest free addresses: the first range, then the start of the subnet.
    const expected = [
      ...Array.from({ length: 20 }, (_, index) => `10.20.0.${10 + index}`),
      ...Array.from({ length: METAL3_CLAIMS + CLUSTER_API_CLAIMS - 20 }, (_, index) => `10.20.1.${1 + index}`),
    ];
    expect([...all].sort()).toEqual([...expected].sort());

    // Each claim names exactly the one object that names it back.
    const byName = new Map(addresses.map((address) => [address.metadata.name, address]));
    for (const claim of claims) expect(byName.get(claim.status?.address?.name ?? '')?.spec.claim.name).toBe(claim.metadata.name);
    const capiByName = new Map(capiAddresses.map((address) => [address.metadata.name, address]));
    for (const claim of capiClaims) expect(capiByName.get(claim.status?.addressRef?.name ?? '')?.spec.claimRef.name).toBe(claim.metadata.name);
    expect(new Set(addresses.map((address) => address.spec.claim.name)).size).toBe(METAL3_CLAIMS);

    // Both processes took part: each logged passes over the shared pool.
    for (const ipam of processes) expect(readFileSync(ipam.logPath, 'utf8')).toContain(`"name":"shared"`);
  });
});
