import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ImageWriteRecord, SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { freePort } from '../../../hack/stack/ports.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { storeIronicNodeHealth } from '../../support/ironic-database.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { tearDownHostTest, inState, metricValue, waitForHost, type Host } from './hosts.ts';

// BMO fidelity on emulated servers 38 and 39 (40 is this file's spare), run side by side: a host
// with userData, networkData and metaData Secrets and a plain one are provisioned and
// deprovisioned together while the operator's metrics are scraped every second. Checked on the
// hardware (the config drive the agent simulator received), in Ironic (node health, the 409s it
// answered) and on the metrics endpoint.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const CONFIGURED = 38;
const PLAIN = 39;
const PROVISION_ROUTE = '/v1/nodes/{node_ident}/states/provision';

const USER_DATA = '#cloud-config\nhostname: fidelity-configured\n';
const NETWORK_DATA = {
  links: [{ id: 'enp1s0', type: 'phy', ethernet_mac_address: env.systems[CONFIGURED]!.macs[0] }],
  networks: [{ id: 'provisioning', type: 'ipv4_dhcp', link: 'enp1s0', network_id: 'provisioning' }],
  services: [{ type: 'dns', address: '192.0.2.53' }],
};

let namespace = '';
let operator: OperatorProcess;
let metricsUrl = '';
const baselines = new Map<number, SystemRecords>();
/** Every metal3_hosts sample: `state/operational_status` -> count, one map per scrape. */
const gaugeSamples: Map<string, number>[] = [];
let sampling: NodeJS.Timeout | undefined;

type HostWithConditions = Host & { status?: Host['status'] & {
  conditions?: { type: string; status: string; reason: string }[];
  operationHistory?: Record<string, { start?: string | null; end?: string | null }>;
} };

const system = (index: number) => env.systems[index]!;

function host(name: string, index: number, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace },
    spec: {
      online: true,
      bootMACAddress: system(index).macs[0],
      bmc: { address: system(index).redfishAddress, credentialsName: `${name}-bmc` },
      automatedCleaningMode: 'disabled',
      image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' },
      ...extra,
    },
  };
}

const secret = (name: string, stringData: Record<string, string>) =>
  ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', stringData });

async function records(index: number): Promise<SystemRecords> {
  return (await (await fetch(`${env.agentSimulatorUrl}/records/${system(index).uuid}`)).json()) as SystemRecords;
}

/** Image writes on the server since this file started. */
const imageWrites = async (index: number): Promise<ImageWriteRecord[]> =>
  (await records(index)).imageWrites.slice(baselines.get(index)?.imageWrites.length ?? 0);

const scrape = async (): Promise<string> => (await fetch(metricsUrl)).text();

function hostsGauge(page: string): Map<string, number> {
  const gauge = new Map<string, number>();
  for (const match of page.matchAll(/^metal3_hosts\{state="([^"]*)",operational_status="([^"]*)"\} (\S+)$/gm)) {
    if (Number(match[3]) > 0) gauge.set(`${match[1]}/${match[2]}`, Number(match[3]));
  }
  return gauge;
}

/** Ironic's node health at the microversion that shows it (1.109), as BMO reads it. */
async function ironicHealth(nodeId: string): Promise<string | null> {
  const response = await fetch(`${env.ironicUrl}/v1/nodes/${nodeId}?fields=health`, { headers: { 'x-openstack-ironic-api-version': '1.109' } });
  if (!response.ok) throw new Error(`GET node ${nodeId} health -> ${response.status}`);
  return ((await response.json()) as { health: string | null }).health;
}

const healthy = (found: HostWithConditions | undefined) => {
  const condition = found?.status?.conditions?.find((c) => c.type === 'Healthy');
  return condition ? `${condition.status}/${condition.reason}` : undefined;
};

async function getHost(name: string): Promise<HostWithConditions> {
  return kubectl.json<HostWithConditions>(['get', 'bmh', name, '-n', namespace]);
}

let probes = 0;
const poke = (name: string) => kubectl.ok(['annotate', 'bmh', name, '-n', namespace, '--overwrite', `day2.metal3-ts.test/probe=${++probes}`]);

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-day2-fidelity');
  for (const index of [CONFIGURED, PLAIN]) baselines.set(index, await records(index));
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  operator = startOperatorProcess({ env, namespace, label: 'day2-fidelity', extraEnv: { METRICS_BIND_ADDRESS: `127.0.0.1:${port}` } });
  await waitFor(async () => ((await fetch(metricsUrl).catch(() => undefined))?.ok ? true : undefined), { timeoutMs: 30_000, what: 'the metrics endpoint' });
  sampling = setInterval(() => {
    scrape().then((page) => gaugeSamples.push(hostsGauge(page)), () => undefined);
  }, 1_000);
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: [
      secret('configured-bmc', env.bmcCredentials!),
      secret('plain-bmc', env.bmcCredentials!),
      secret('configured-user-data', { userData: USER_DATA }),
      secret('configured-network-data', { networkData: JSON.stringify(NETWORK_DATA) }),
      secret('configured-meta-data', { metaData: 'role: worker\nlocal-hostname: fidelity-node-a\n' }),
      host('configured', CONFIGURED, {
        userData: { name: 'configured-user-data' },
        networkData: { name: 'configured-network-data' },
        metaData: { name: 'configured-meta-data' },
      }),
      host('plain', PLAIN),
    ],
  }));
}, minutes(2));

afterAll(async () => {
  clearInterval(sampling);
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('BMO fidelity on real Ironic', () => {
  let configured: HostWithConditions;
  let plain: HostWithConditions;

  it('writes the Secrets into the config drive the server receives, over BMO\'s default meta_data', async () => {
    [configured, plain] = await Promise.all(['configured', 'plain'].map((name) =>
      waitForHost(kubectl, namespace, name, inState('provisioned'), { timeoutMs: minutes(10), failOnError: true }))) as [HostWithConditions, HostWithConditions];

    const [configuredWrites, plainWrites] = await Promise.all([imageWrites(CONFIGURED), imageWrites(PLAIN)]);
    expect(configuredWrites).toHaveLength(1);
    expect(configuredWrites[0]).toMatchObject({ outcome: 'written', nodeUuid: configured.status!.provisioning!.ID });
    expect(configuredWrites[0]!.configDrive).toMatchObject({ written: true, userData: USER_DATA, networkData: NETWORK_DATA });
    expect(configuredWrites[0]!.configDrive.metaData).toEqual({
      uuid: configured.metadata.uid,
      'metal3-namespace': namespace,
      'metal3-name': 'configured',
      'local-hostname': 'fidelity-node-a',
      local_hostname: 'configured',
      name: 'configured',
      role: 'worker',
    });

    expect(plainWrites).toHaveLength(1);
    expect(plainWrites[0]!.configDrive.written).toBe(true);
    expect(plainWrites[0]!.configDrive.metaData).toEqual({
      uuid: plain.metadata.uid,
      'metal3-namespace': namespace,
      'metal3-name': 'plain',
      'local-hostname': 'plain',
      local_hostname: 'plain',
      name: 'plain',
    });
    expect(plainWrites[0]!.configDrive.userData).toBeUndefined();
    expect(plainWrites[0]!.configDrive.networkData).toBeUndefined();
  }, minutes(11));

  it('Healthy follows the health Ironic reports for the node', async () => {
    // sushy-tools reports OK; Ironic copies it into the node on its power sync. The sync runs every
    // 10 s here, but a pass waits for every node's BMC: while another file's BMC is down on purpose
    // (bmc-outage), each pass takes sushy's ten retries against it (one took 110 s in a full run),
    // so allow several minutes.
    const powerSyncWait = minutes(4);
    for (const found of [configured, plain]) {
      const nodeId = found.status!.provisioning!.ID!;
      await waitFor(async () => ((await ironicHealth(nodeId)) === 'OK' ? true : undefined), { timeoutMs: powerSyncWait, what: `Ironic health of ${found.metadata.name}` });
      await waitFor(async () => {
        await poke(found.metadata.name);
        return healthy(await getHost(found.metadata.name)) === 'True/Healthy' ? true : undefined;
      }, { timeoutMs: minutes(1), intervalMs: 2_000, what: `${found.metadata.name} Healthy` });
    }

    // A Critical report on the plain host's node: the condition follows, the other host's does not.
    const nodeId = plain.status!.provisioning!.ID!;
    // sushy-tools' systems always report OK, so the BMC's Critical report is written into Ironic's
    // database; Ironic's next power sync reads OK from the BMC again.
    await waitFor(async () => {
      storeIronicNodeHealth(env.stateDir, nodeId, 'Critical');
      await poke('plain');
      return healthy(await getHost('plain')) === 'False/CriticalError' ? true : undefined;
    }, { timeoutMs: minutes(2), intervalMs: 2_000, what: 'plain to turn CriticalError' });
    expect(healthy(await getHost('configured'))).toBe('True/Healthy');

    // Ironic's next power sync reads OK from the BMC again; so does the host.
    await waitFor(async () => ((await ironicHealth(nodeId)) === 'OK' ? true : undefined), { timeoutMs: powerSyncWait, what: 'Ironic to read OK again' });
    await waitFor(async () => {
      await poke('plain');
      return healthy(await getHost('plain')) === 'True/Healthy' ? true : undefined;
    }, { timeoutMs: minutes(1), intervalMs: 2_000, what: 'plain Healthy again' });
  }, minutes(16));

  it('deprovisions both and the metal3_* metrics tell the lifecycle as it happened', async () => {
    await Promise.all(['configured', 'plain'].map((name) =>
      kubectl.ok(['patch', 'bmh', name, '-n', namespace, '--type=merge', '-p', '{"spec":{"image":null}}'])));
    const done = await Promise.all(['configured', 'plain'].map((name) =>
      waitForHost(kubectl, namespace, name, inState('available'), { timeoutMs: minutes(6), failOnError: true })));
    for (const found of done) expect((await ironic.node(found.status!.provisioning!.ID!)).provision_state).toBe('available');

    await waitFor(async () => (hostsGauge(await scrape()).get('available/OK') === 2 ? true : undefined), { timeoutMs: 30_000, what: 'both hosts counted available' });
    const page = await scrape();
    const transitions = (from: string, to: string) => metricValue(page, 'metal3_provisioning_state_change_total', { prev_state: from, new_state: to });
    for (const [from, to] of [['registering', 'inspecting'], ['provisioning', 'provisioned'], ['provisioned', 'deprovisioning'], ['deprovisioning', 'available']] as const) {
      expect([`${from} -> ${to}`, transitions(from, to)]).toEqual([`${from} -> ${to}`, 2]);
    }

    for (const name of ['configured', 'plain']) {
      const labels = { namespace, host: name };
      for (const operation of ['register', 'inspect', 'provision', 'deprovision']) {
        expect([operation, metricValue(page, `metal3_operation_${operation}_duration_seconds_count`, labels)]).toEqual([operation, 1]);
      }
      // The provision histogram holds the time the host's own operation history shows.
      const history = (await getHost(name)).status!.operationHistory!['provision']!;
      const recorded = (Date.parse(history.end!) - Date.parse(history.start!)) / 1000;
      expect(Math.abs(metricValue(page, 'metal3_operation_provision_duration_seconds_sum', labels) - recorded)).toBeLessThanOrEqual(2);
      // Every Ironic operation is asynchronous, so each is started by one pass and seen ended by a
      // later one: registration and inspection in a row take three passes at least, provisioning
      // and deprovisioning two each. How many more depends on timing.
      expect(metricValue(page, 'metal3_reconcile_total', labels)).toBeGreaterThanOrEqual(7);
    }
    expect(metricValue(page, 'metal3_reconcile_error_total')).toBe(0);
    expect(metricValue(page, 'metal3_host_error_total')).toBe(0);
    expect(metricValue(page, 'controller_runtime_reconcile_total', { controller: 'baremetalhost', result: 'error' })).toBe(0);

    // The per-state gauge, sampled every second, saw both hosts through the lifecycle and never
    // more hosts than exist. The last state is read from the scrape above: the sampler's own
    // scrape of it may not have landed yet on a loaded machine (one local CI run failed so).
    const seen = new Set([...gaugeSamples, hostsGauge(page)].flatMap((sample) => [...sample.keys()]));
    for (const state of ['inspecting', 'provisioning', 'provisioned', 'deprovisioning', 'available']) expect(seen).toContain(`${state}/OK`);
    expect(Math.max(...gaugeSamples.map((sample) => [...sample.values()].reduce((a, b) => a + b, 0)))).toBe(2);
    expect(gaugeSamples.some((sample) => sample.get('provisioned/OK') === 2)).toBe(true);

    // Provision-state changes wait for Ironic to release the node's lock instead of asking into it.
    // A guard, not the proof: this quiet run also had no 409 with that wait removed (the unit
    // tests in operator/provisioner/ironic/node-writes.test.ts prove the wait itself).
    const put = metricValue(page, 'ironic_client_requests_total', { route: PROVISION_ROUTE });
    const locked = metricValue(page, 'ironic_client_requests_total', { route: PROVISION_ROUTE, code: '409' });
    console.log(`provision-state changes: ${put} requests, ${locked} answered 409`);
    expect(put).toBeGreaterThanOrEqual(8);
    expect(locked).toBe(0);
  }, minutes(8));
});
