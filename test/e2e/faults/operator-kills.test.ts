import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { byFaultScale } from '../../support/fault-scale.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { scanForSecrets, testSecretValues } from '../../support/secret-scan.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { getHost, inState, recordsSince, serverRecords, tearDownHostTest, type Host } from '../baremetalhost/hosts.ts';
import { IronicNodeCensus } from './ironic-node-census.ts';
import { startOperatorProcess } from '../../support/operator-process.ts';
import { ProcessUnderFire } from './process-under-fire.ts';
import { seededRandom } from './seeded-random.ts';
import { StatusWatch } from './status-watch.ts';

// N hosts through register, inspect, provision, deprovision and delete while the operator is
// SIGKILLed at random moments and started again. Servers 52-59 and 82-93 are this file's: 4 hosts
// (52-55) and 5 kills in CI, 20 hosts (52-59, then 82-93) and 20 kills with
// METAL3_TS_FAULTS_SCALE=large (60-63 are provider-kills').
// Throughout, Ironic's node list and the hosts' status are sampled; at the end the agent
// simulator's records say what each server went through.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const minutes = (n: number) => n * 60_000;
const serversFromTo = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, index) => first + index);
const SERVERS = [...serversFromTo(52, 59), ...serversFromTo(82, 93)];
const HOSTS = byFaultScale({ small: 4, large: 20 });
const random = seededRandom();
// Distinctive, so the secret scan below (and the suite's, which reads this literal) can find it.
const USER_DATA = '#cloud-config\n# operator-kills user data 5d1f\n';
const image = env.images[0]!;
const servers = SERVERS.slice(0, HOSTS).map((server, index) => ({ name: `killed-${index}`, system: env.systems[server]! }));
// Kills per phase: most where the operator does most (registration to provisioned), some in
// deprovisioning, the rest while hosts are deleted; kills a phase ends too soon for carry on to
// the next. 20 hosts went through deprovisioning and deletion in as little as 70 and 24 s,
// so the later kills come closer together (at most 6 × 8 s and 2 × 8 s): with 2-20 s pauses
// throughout, one large run made only 17 of its 20, and one small run (seed 1136621976) 4 of its 5.
const killPlan = byFaultScale({ small: { provision: 3, deprovision: 2, delete: 0 }, large: { provision: 12, deprovision: 6, delete: 2 } });
const laterPausesMs: [number, number] = [1_000, 8_000];
const KILLS = killPlan.provision + killPlan.deprovision + killPlan.delete;

let namespace = '';
let operator: ProcessUnderFire | undefined;
let census: IronicNodeCensus;
let statusWatch: StatusWatch;
const before = new Map<string, SystemRecords>();
const nodeIds = new Map<string, string>();
let unkilled = 0;

async function allHosts(accept: (host: Host) => boolean, what: string, timeoutMs: number): Promise<Host[]> {
  let last: string[] = [];
  try {
    return await waitFor(async () => {
      const hosts = await Promise.all(servers.map(({ name }) => getHost(kubectl, namespace, name)));
      last = hosts.map((host, index) => `${servers[index]!.name}: ${host?.status?.provisioning?.state ?? 'gone'} ${host?.status?.errorType ?? ''}`);
      return hosts.every((host) => host !== undefined && accept(host)) ? (hosts as Host[]) : undefined;
    }, { timeoutMs, intervalMs: 2_000, what });
  } catch (error) {
    throw new Error(`${(error as Error).message}; last: ${last.join(', ')}`, { cause: error });
  }
}

async function allGone(timeoutMs: number): Promise<true> {
  return waitFor(async () => ((await kubectl.ok(['get', 'bmh', '-n', namespace, '-o', 'name'])).trim() ? undefined : true),
    { timeoutMs, intervalMs: 2_000, what: 'every host to be deleted' });
}

/** A phase, with the operator killed during it as planned; the kills it could not make carry on. */
async function underFire<T>(phase: Promise<T>, kills: number, pauseMs: [number, number] = [2_000, 20_000]): Promise<T> {
  unkilled = await operator!.killDuring(phase, { count: kills + unkilled, pauseMs, random });
  return phase;
}

function expectHealthy(hosts: Host[]): void {
  for (const host of hosts) {
    expect({ name: host.metadata.name, errorType: host.status?.errorType ?? '', operationalStatus: host.status?.operationalStatus })
      .toEqual({ name: host.metadata.name, errorType: '', operationalStatus: 'OK' });
  }
}

beforeAll(async () => {
  console.log(`operator-kills: ${HOSTS} hosts, ${KILLS} kills, seed ${random.seed} (METAL3_TS_FAULTS_SEED replays it)`);
  namespace = await createUniqueNamespace(kubectl, 'e2e-faults-kills');
  for (const { system } of servers) before.set(system.uuid, await serverRecords(env, system.uuid));
  census = new IronicNodeCensus({ ironicUrl: env.ironicUrl, namespace, systemIds: servers.map(({ system }) => system.uuid) });
  statusWatch = new StatusWatch({ kubectl, namespace });
  operator = new ProcessUnderFire((life) => startOperatorProcess({ env, namespace, label: `faults-kills-${life}` }));
  const bmcSecret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bmc', namespace }, stringData: env.bmcCredentials! };
  const userData = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'user-data', namespace }, stringData: { userData: USER_DATA } };
  const hosts = servers.map(({ name, system }) => ({
    apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace },
    spec: {
      online: true, bootMACAddress: system.macs[0], bmc: { address: system.redfishAddress, credentialsName: 'bmc' },
      image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' }, userData: { name: 'user-data', namespace },
    },
  }));
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [bmcSecret, userData, ...hosts] }));
  census.start(2_000);
  statusWatch.start(2_000);
}, minutes(2));

afterAll(async () => {
  await census?.stop();
  await statusWatch?.stop();
  await tearDownHostTest({ env, kubectl, namespace, operator: operator && { process: operator.current.process, stop: () => operator!.stop(), kill: () => operator!.killAndRestart() } });
}, minutes(6));

describe(`the operator SIGKILLed at random moments (${KILLS} times) during ${HOSTS} hosts' lives`, () => {
  it('registers, inspects and provisions every host once, with one Ironic node each', async () => {
    const hosts = await underFire(allHosts(inState('provisioned'), 'every host provisioned', minutes(byFaultScale({ small: 20, large: 45 }))), killPlan.provision);
    expectHealthy(hosts);
    for (const host of hosts) nodeIds.set(host.metadata.name, host.status!.provisioning!.ID!);
    for (const { name, system } of servers) {
      const since = recordsSince(await serverRecords(env, system.uuid), before.get(system.uuid)!);
      const writes = since.imageWrites.filter((write) => write.outcome === 'written');
      expect({ name, writes: writes.length, node: writes[0]?.nodeUuid, userData: writes[0]?.configDrive.userData })
        .toEqual({ name, writes: 1, node: nodeIds.get(name), userData: USER_DATA });
      expect({ name, inspections: since.inspections.filter((inspection) => inspection.accepted).length }).toEqual({ name, inspections: 1 });
    }
  }, minutes(byFaultScale({ small: 22, large: 47 })));

  it('deprovisions every host back to available, cleaning its disks, never imaging again', async () => {
    for (const { name } of servers) {
      await kubectl.ok(['patch', 'bmh', name, '-n', namespace, '--type=json', '-p', JSON.stringify([{ op: 'remove', path: '/spec/image' }])]);
    }
    const hosts = await underFire(allHosts((host) => inState('available')(host) && !host.spec.image, 'every host available again', minutes(byFaultScale({ small: 15, large: 30 }))), killPlan.deprovision, laterPausesMs);
    expectHealthy(hosts);
    for (const { name, system } of servers) {
      const since = recordsSince(await serverRecords(env, system.uuid), before.get(system.uuid)!);
      expect({ name, writes: since.imageWrites.length }).toEqual({ name, writes: 1 });
      expect(since.diskWipes.length).toBeGreaterThan(0);
      expect(hosts.find((host) => host.metadata.name === name)?.status?.provisioning?.ID).toBe(nodeIds.get(name));
    }
  }, minutes(byFaultScale({ small: 17, large: 32 })));

  it('deletes every host and its Ironic node; no host ever had two nodes, no status field was lost', async () => {
    await kubectl.ok(['delete', 'bmh', '--all', '-n', namespace, '--wait=false']);
    await underFire(allGone(minutes(8)), killPlan.delete, laterPausesMs);
    for (const id of nodeIds.values()) {
      const gone = await fetch(`${env.ironicUrl}/v1/nodes/${id}`, { headers: { 'x-openstack-ironic-api-version': '1.95' } });
      expect(gone.status).toBe(404);
    }
    await census.stop();
    await statusWatch.stop();
    await census.sample();
    console.log(`operator-kills: ${operator!.kills} kills survived by ${HOSTS} hosts (seed ${random.seed}); ` +
      `${census.samples} Ironic samples, duplicate nodes ${census.duplicates().length}; ${statusWatch.samples} status samples, fields lost ${statusWatch.losses.length}`);
    expect(census.namesSeen()).toHaveLength(HOSTS);
    expect(census.duplicates()).toEqual([]);
    expect(statusWatch.samples).toBeGreaterThan(10);
    expect(statusWatch.losses).toEqual([]);
    // Each phase outlasted its planned kills.
    expect(operator!.kills).toBe(KILLS);
  }, minutes(10));

  it('wrote no BMC password and no user data to any of its operators\' logs, its Events or its hosts\' status', async () => {
    const secrets = [...testSecretValues(env), { label: 'this file\'s user data', value: USER_DATA }];
    // The values scanned for are the ones in use: the BMC password the hosts' Secret holds and
    // the user data their servers received (checked in the first test).
    expect(secrets.map((secret) => secret.value)).toEqual(expect.arrayContaining([env.bmcCredentials!.password, USER_DATA]));
    const report = await scanForSecrets({ logFiles: operator!.logPaths, secrets, kubectl, namespace });
    expect(report.files).toBe(KILLS + 1);
    expect(report.objects).toBeGreaterThan(0);
    expect(report.found).toEqual([]);
  });
});
