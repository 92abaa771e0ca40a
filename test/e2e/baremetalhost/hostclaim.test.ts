import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { tearDownHostTest, waitForHost, inState } from './hosts.ts';

// BMO's HostClaims (--hostclaims) on emulated servers 95 and 96: hosts registered and inspected
// by real Ironic in one namespace, claimed from others that a HostDeployPolicy accepts. The
// operator watches every namespace (HostClaims cross them), so this file runs alone.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const minutes = (n: number) => n * 60_000;
const SERVERS = [95, 96];

interface Claim {
  metadata: { name: string; finalizers?: string[] };
  status?: { bareMetalHost?: { namespace: string; name: string }; conditions?: { type: string; status: string; reason: string; message: string }[] };
}
interface ClaimedHost { metadata: { name: string }; spec: { consumerRef?: { apiVersion?: string; kind?: string; name?: string; namespace?: string } } }

let infra = '';
let tenant = '';
let outsider = '';
let operator: OperatorProcess | undefined;

const claimManifest = (namespace: string, name: string) => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'HostClaim', metadata: { name, namespace }, spec: { poweredOn: false, hostSelector: { matchLabels: { pool: 'web' } } },
});
const getClaim = (namespace: string, name: string) => kubectl.json<Claim>(['get', 'hostclaim', name, '-n', namespace]);
const condition = (claim: Claim, type: string) => claim.status?.conditions?.find((c) => c.type === type);
const hosts = async () => (await kubectl.json<{ items: ClaimedHost[] }>(['get', 'bmh', '-n', infra])).items;
const holderOf = (host: ClaimedHost) => (host.spec.consumerRef ? `${host.spec.consumerRef.namespace}/${host.spec.consumerRef.name}` : undefined);
const associated = (namespace: string, name: string) => waitFor(async () => {
  const claim = await getClaim(namespace, name);
  return condition(claim, 'Associated')?.status === 'True' && claim.status?.bareMetalHost ? claim : undefined;
}, { timeoutMs: minutes(1), what: `HostClaim ${namespace}/${name} associated` });

beforeAll(async () => {
  infra = await createUniqueNamespace(kubectl, 'e2e-hc-infra');
  tenant = await createUniqueNamespace(kubectl, 'e2e-hc-tenant');
  outsider = await createUniqueNamespace(kubectl, 'e2e-hc-outsider');
  await kubectl.ok(['label', 'namespace', tenant, 'tier=gold']);
  operator = startOperatorProcess({ env, namespace: '', label: 'hostclaim', extraArgs: ['--hostclaims'] });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: SERVERS.flatMap((server, index) => [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: `web-${index}-bmc`, namespace: infra }, type: 'Opaque', stringData: env.bmcCredentials! },
      {
        apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: `web-${index}`, namespace: infra, labels: { pool: 'web' } },
        spec: { online: false, bootMACAddress: env.systems[server]!.macs[0], bmc: { address: env.systems[server]!.redfishAddress, credentialsName: `web-${index}-bmc` } },
      },
    ]),
  }));
  for (let index = 0; index < SERVERS.length; index++) {
    await waitForHost(kubectl, infra, `web-${index}`, inState('available'), { timeoutMs: minutes(4), failOnError: true });
  }
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'metal3.io/v1alpha1', kind: 'HostDeployPolicy', metadata: { name: 'gold-tenants', namespace: infra },
    spec: { hostClaimNamespaces: { hasLabels: [{ name: 'tier', value: 'gold' }] } },
  }));
}, minutes(6));

afterAll(async () => {
  for (const namespace of [tenant, outsider]) {
    if (!namespace) continue;
    await kubectl.run(['delete', 'hostclaim', '--all', '-n', namespace, '--wait=true', '--timeout=60s']);
    await deleteNamespace(kubectl, namespace);
  }
  await tearDownHostTest({ env, kubectl, namespace: infra, operator });
}, minutes(5));

describe('HostClaims on real Ironic', () => {
  it('a claim from a namespace the policy accepts takes an available host of another namespace: its consumerRef, the claim\'s status and conditions', async () => {
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify(claimManifest(tenant, 'first')));
    const claim = await associated(tenant, 'first');
    expect(claim.metadata.finalizers).toEqual(['metal3.io/hostclaim']);
    expect(claim.status?.bareMetalHost?.namespace).toBe(infra);
    const host = (await hosts()).find((candidate) => candidate.metadata.name === claim.status?.bareMetalHost?.name);
    expect(host?.spec.consumerRef).toEqual({ apiVersion: 'metal3.io/v1alpha1', kind: 'HostClaim', name: 'first', namespace: tenant });
    expect(condition(claim, 'Ready')).toMatchObject({ status: 'Unknown', reason: 'UnknownReported' });
  });

  it('a claim from a namespace no policy accepts waits, saying why, and takes nothing', async () => {
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify(claimManifest(outsider, 'stranger')));
    const claim = await waitFor(async () => {
      const current = await getClaim(outsider, 'stranger');
      return condition(current, 'Associated')?.status === 'False' ? current : undefined;
    }, { timeoutMs: minutes(1), what: 'the outsider\'s claim refused' });
    expect(condition(claim, 'Associated')).toMatchObject({
      reason: 'NoBareMetalHost', message: `No available host found: no HostDeployPolicy lets HostClaims of namespace ${outsider} claim hosts: requeuing.`,
    });
    expect(condition(claim, 'Ready')).toMatchObject({ status: 'False', reason: 'IssuesReported' });
    expect((await hosts()).map(holderOf).filter((holder) => holder?.startsWith(outsider))).toEqual([]);
  });

  it('two claims racing for the last host: exactly one gets it, the other waits; deleting a claim frees its host for the one waiting', async () => {
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [claimManifest(tenant, 'racer-a'), claimManifest(tenant, 'racer-b')] }));
    const settled = await waitFor(async () => {
      const claims = await Promise.all(['racer-a', 'racer-b'].map((name) => getClaim(tenant, name)));
      const states = claims.map((claim) => condition(claim, 'Associated')?.status);
      return states.includes('True') && states.includes('False') ? claims : undefined;
    }, { timeoutMs: minutes(1), what: 'one racer associated and one waiting' });
    const [winner, loser] = condition(settled[0]!, 'Associated')?.status === 'True' ? settled : [settled[1]!, settled[0]!];
    expect(condition(loser!, 'Associated')?.message).toBe(`No available host found: 2 BareMetalHosts in ${infra} match the hostSelector (pool=web) but 2 consumed: requeuing.`);
    expect((await hosts()).map(holderOf).sort()).toEqual([`${tenant}/first`, `${tenant}/${winner!.metadata.name}`].sort());

    const freed = (await getClaim(tenant, 'first')).status!.bareMetalHost!.name;
    await kubectl.ok(['delete', 'hostclaim', 'first', '-n', tenant, '--timeout=60s']);
    const released = (await hosts()).find((host) => host.metadata.name === freed);
    expect(holderOf(released!)).not.toBe(`${tenant}/first`);
    // BMO looks again for a waiting claim every 30 s.
    const taken = await associated(tenant, loser!.metadata.name);
    expect(taken.status?.bareMetalHost).toEqual({ namespace: infra, name: freed });
    expect((await hosts()).map(holderOf).sort()).toEqual([`${tenant}/racer-a`, `${tenant}/racer-b`]);
  }, minutes(2));
});
