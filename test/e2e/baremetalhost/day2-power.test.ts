import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { freePort } from '../../../hack/stack/ports.ts';
import { ironicPowerChanges } from '../../support/ironic-log.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  tearDownHostTest, getHost, hostEventCounts, inState, metricValue, sushyPowerState, waitForHost, waitForSushyPower,
} from './hosts.ts';

// Day-2 power on real Ironic and sushy-tools: two provisioned hosts on emulated servers 29 and 30,
// started together; every assertion looks at the emulated hardware (sushy-tools' power state,
// the agent simulator's boot records) or at Ironic, besides the host's status.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const POWER = 29;
const NO_POWER_OFF = 30;

let namespace = '';
let operator: OperatorProcess;
let metricsUrl = '';

const system = (index: number) => env.systems[index]!;

function provisionedHost(name: string, index: number, extra: Record<string, unknown> = {}) {
  return [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
    {
      apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace },
      spec: {
        online: true,
        bootMACAddress: system(index).macs[0],
        bmc: { address: system(index).redfishAddress, credentialsName: `${name}-bmc` },
        automatedCleaningMode: 'disabled',
        image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' },
        ...extra,
      },
    },
  ];
}

async function records(index: number): Promise<SystemRecords> {
  return (await (await fetch(`${env.agentSimulatorUrl}/records/${system(index).uuid}`)).json()) as SystemRecords;
}

const diskBoots = async (index: number) => (await records(index)).boots.filter((boot) => boot.into === 'disk').length;

async function annotate(name: string, ...pairs: string[]): Promise<void> {
  await kubectl.ok(['annotate', 'bmh', name, '-n', namespace, '--overwrite', ...pairs]);
}

async function annotations(name: string): Promise<Record<string, string>> {
  const host = await kubectl.json<{ metadata: { annotations?: Record<string, string> } }>(['get', 'bmh', name, '-n', namespace]);
  return host.metadata.annotations ?? {};
}

async function reconciles(name: string): Promise<number> {
  const page = await (await fetch(metricsUrl)).text();
  return metricValue(page, 'metal3_reconcile_total', { namespace, host: name });
}

async function powerChangeMetrics(name: string): Promise<{ on: number; off: number }> {
  const page = await (await fetch(metricsUrl)).text();
  const of = (direction: string) => metricValue(page, 'metal3_operation_power_change_total', { namespace, host: name, on_off: direction });
  return { on: of('on'), off: of('off') };
}

/** Makes the operator reconcile the host (an annotation change) and waits until it has. */
async function observedReconcile(name: string, probe: string): Promise<void> {
  const before = await reconciles(name);
  await annotate(name, `day2.metal3-ts.test/probe=${probe}`);
  await waitFor(async () => ((await reconciles(name)) > before ? true : undefined), { timeoutMs: minutes(1), what: `a reconcile of ${name}` });
}

async function nodeOf(name: string): Promise<{ uuid: string; power_state: string; disable_power_off?: boolean; provision_state: string }> {
  const id = (await getHost(kubectl, namespace, name))?.status?.provisioning?.ID;
  return ironic.request('GET', `/v1/nodes/${id}`);
}

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-day2-power');
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  operator = startOperatorProcess({ env, namespace, label: 'day2-power', extraEnv: { METRICS_BIND_ADDRESS: `127.0.0.1:${port}` } });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: [
      ...provisionedHost('power', POWER),
      ...provisionedHost('no-power-off', NO_POWER_OFF, { disablePowerOff: true }),
    ],
  }));
  await Promise.all(['power', 'no-power-off'].map((name) =>
    waitForHost(kubectl, namespace, name, inState('provisioned'), { timeoutMs: minutes(9), failOnError: true })));
}, minutes(10));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('day-2 power of provisioned hosts, on the emulated hardware', () => {
  it('online: false soft-powers the server off and online: true powers it on again; status.poweredOn follows', async () => {
    const uuid = system(POWER).uuid;
    await waitForSushyPower(env, uuid, 'On', minutes(1));
    const node = await nodeOf('power');
    const bootsBefore = await diskBoots(POWER);
    const eventsBefore = await hostEventCounts(kubectl, namespace, 'power');
    const powerChangesBefore = await powerChangeMetrics('power');

    await kubectl.ok(['patch', 'bmh', 'power', '-n', namespace, '--type=merge', '-p', '{"spec":{"online":false}}']);
    await waitForSushyPower(env, uuid, 'Off', minutes(2));
    const off = await waitForHost(kubectl, namespace, 'power', (host) => host.status?.poweredOn === false, { timeoutMs: minutes(2), failOnError: true });
    expect(off.status?.provisioning?.state).toBe('provisioned');
    expect((await ironic.node(node.uuid)).power_state).toBe('power off');
    // Soft first, as BMO does.
    expect(ironicPowerChanges(env, node.uuid)).toContain('power off by soft power off');

    await kubectl.ok(['patch', 'bmh', 'power', '-n', namespace, '--type=merge', '-p', '{"spec":{"online":true}}']);
    await waitForSushyPower(env, uuid, 'On', minutes(2));
    await waitForHost(kubectl, namespace, 'power', (host) => host.status?.poweredOn === true, { timeoutMs: minutes(2), failOnError: true });
    expect((await ironic.node(node.uuid)).power_state).toBe('power on');
    // The server came up again from the disk the image went to.
    await waitFor(async () => ((await diskBoots(POWER)) > bootsBefore ? true : undefined), { timeoutMs: minutes(1), what: 'a boot from disk' });
    // One event and one metal3_operation_power_change_total count per request, both ways,
    // however many reconciles ran while sushy-tools took its time.
    const events = await hostEventCounts(kubectl, namespace, 'power');
    const added = (key: string) => (events.get(key) ?? 0) - (eventsBefore.get(key) ?? 0);
    expect([added('PowerOff: Host soft powered off'), added('PowerOn: Host powered on')]).toEqual([1, 1]);
    const metrics = await powerChangeMetrics('power');
    expect([metrics.off - powerChangesBefore.off, metrics.on - powerChangesBefore.on]).toEqual([1, 1]);
  }, minutes(6));

  it('a server powered off in Ironic behind the operator\'s back is powered on again: the node sweep wakes its host, nothing else does', async () => {
    const uuid = system(POWER).uuid;
    await waitForSushyPower(env, uuid, 'On', minutes(2));
    const node = await nodeOf('power');
    const generationOf = () => kubectl.ok(['get', 'bmh', 'power', '-n', namespace, '-o', 'jsonpath={.metadata.generation}']);
    const generation = await generationOf();
    const powerChangesBefore = await powerChangeMetrics('power');
    const reconcilesBefore = await reconciles('power');

    // Through Ironic's API, as an admin with the baremetal CLI would: Ironic records the server as
    // off on purpose and will not power it on again by itself; the host is not touched.
    await ironic.request('PUT', `/v1/nodes/${node.uuid}/states/power`, { target: 'power off' });
    await waitForSushyPower(env, uuid, 'Off', minutes(2));

    // A host at rest is not polled; the next node sweep (a minute) sees the node changed and wakes it.
    await waitForSushyPower(env, uuid, 'On', minutes(3));
    await waitFor(async () => ((await ironic.node(node.uuid)).power_state === 'power on' ? true : undefined), { timeoutMs: minutes(1), what: 'Ironic to see the node on' });
    expect((await powerChangeMetrics('power')).on - powerChangesBefore.on).toBe(1);
    expect(await reconciles('power')).toBeGreaterThan(reconcilesBefore);
    // The status catches up once the power on is done.
    const host = await waitForHost(kubectl, namespace, 'power', (found) => found.status?.poweredOn === true, { timeoutMs: minutes(1), failOnError: true });
    expect({ generation: await generationOf(), state: host.status?.provisioning?.state }).toEqual({ generation, state: 'provisioned' });
  }, minutes(6));

  it('reboot.metal3.io power-cycles the server once, softly, and is removed', async () => {
    const uuid = system(POWER).uuid;
    const node = await nodeOf('power');
    const bootsBefore = await diskBoots(POWER);
    const changesBefore = ironicPowerChanges(env, node.uuid).length;

    await annotate('power', 'reboot.metal3.io=');
    await waitFor(async () => (!('reboot.metal3.io' in (await annotations('power'))) ? true : undefined),
      { timeoutMs: minutes(3), what: 'the reboot annotation to be removed' });
    await waitForSushyPower(env, uuid, 'On', minutes(2));
    await waitForHost(kubectl, namespace, 'power', (host) => host.status?.poweredOn === true, { timeoutMs: minutes(2), failOnError: true });
    await waitFor(async () => ((await diskBoots(POWER)) > bootsBefore ? true : undefined), { timeoutMs: minutes(1), what: 'a boot from disk' });
    // Exactly one cycle: one soft power off, one power on.
    await waitFor(async () => (ironicPowerChanges(env, node.uuid).length >= changesBefore + 2 ? true : undefined),
      { timeoutMs: minutes(1), what: 'Ironic to log the power on' });
    expect(ironicPowerChanges(env, node.uuid).slice(changesBefore)).toEqual(['power off by soft power off', 'power on by power on']);
    expect(await diskBoots(POWER)).toBe(bootsBefore + 1);
  }, minutes(5));

  it('reboot.metal3.io {"mode":"hard"} power-cycles the server with a hard power off', async () => {
    const node = await nodeOf('power');
    const bootsBefore = await diskBoots(POWER);
    const changesBefore = ironicPowerChanges(env, node.uuid).length;

    await annotate('power', 'reboot.metal3.io={"mode":"hard"}');
    await waitFor(async () => (!('reboot.metal3.io' in (await annotations('power'))) ? true : undefined),
      { timeoutMs: minutes(3), what: 'the reboot annotation to be removed' });
    await waitForSushyPower(env, system(POWER).uuid, 'On', minutes(2));
    await waitFor(async () => (ironicPowerChanges(env, node.uuid).length >= changesBefore + 2 ? true : undefined),
      { timeoutMs: minutes(2), what: 'Ironic to log the power on' });
    expect(ironicPowerChanges(env, node.uuid).slice(changesBefore)).toEqual(['power off by power off', 'power on by power on']);
    await waitFor(async () => ((await diskBoots(POWER)) > bootsBefore ? true : undefined), { timeoutMs: minutes(1), what: 'a boot from disk' });
    await waitForHost(kubectl, namespace, 'power', (host) => host.status?.poweredOn === true, { timeoutMs: minutes(2), failOnError: true });
  }, minutes(5));

  it('reboot.metal3.io/<key> {"mode":"soft"} keeps the server off until its owner removes it', async () => {
    const uuid = system(POWER).uuid;
    const node = await nodeOf('power');
    const changesBefore = ironicPowerChanges(env, node.uuid).length;

    await annotate('power', 'reboot.metal3.io/remediation={"mode":"soft"}');
    await waitForSushyPower(env, uuid, 'Off', minutes(2));
    await waitForHost(kubectl, namespace, 'power', (host) => host.status?.poweredOn === false, { timeoutMs: minutes(2), failOnError: true });
    expect(ironicPowerChanges(env, node.uuid).slice(changesBefore)).toEqual(['power off by soft power off']);

    // Reconciles after it is off change nothing: the operator never removes an owner's annotation.
    await observedReconcile('power', 'while-off-1');
    await observedReconcile('power', 'while-off-2');
    expect(await annotations('power')).toHaveProperty(['reboot.metal3.io/remediation'], '{"mode":"soft"}');
    expect(await sushyPowerState(env, uuid)).toBe('Off');
    expect((await ironic.node(node.uuid)).power_state).toBe('power off');

    await kubectl.ok(['annotate', 'bmh', 'power', '-n', namespace, 'reboot.metal3.io/remediation-']);
    await waitForSushyPower(env, uuid, 'On', minutes(2));
    await waitForHost(kubectl, namespace, 'power', (host) => host.status?.poweredOn === true, { timeoutMs: minutes(2), failOnError: true });
    expect((await ironic.node(node.uuid)).power_state).toBe('power on');
  }, minutes(6));

  it('disablePowerOff: Ironic refuses to power the server off, and reboot.metal3.io reboots it without a power off', async () => {
    const uuid = system(NO_POWER_OFF).uuid;
    await waitForSushyPower(env, uuid, 'On', minutes(1));
    const node = await nodeOf('no-power-off');
    expect(node.disable_power_off).toBe(true);
    // What the operator set on the node is enforced by Ironic itself.
    for (const target of ['power off', 'soft power off']) {
      await expect(ironic.request('PUT', `/v1/nodes/${node.uuid}/states/power`, { target }))
        .rejects.toThrow(new RegExp(`-> 409: .*Failed to set node power state to ${target}\\.`));
    }

    const bootsBefore = await diskBoots(NO_POWER_OFF);
    const changesBefore = ironicPowerChanges(env, node.uuid).length;
    await annotate('no-power-off', 'reboot.metal3.io=');
    await waitFor(async () => (!('reboot.metal3.io' in (await annotations('no-power-off'))) ? true : undefined),
      { timeoutMs: minutes(3), what: 'the reboot annotation to be removed' });
    await waitFor(async () => ((await diskBoots(NO_POWER_OFF)) > bootsBefore ? true : undefined), { timeoutMs: minutes(2), what: 'a reboot from disk' });
    await waitFor(async () => (ironicPowerChanges(env, node.uuid).length > changesBefore ? true : undefined),
      { timeoutMs: minutes(1), what: 'Ironic to log the reboot' });
    const changes = ironicPowerChanges(env, node.uuid).slice(changesBefore);
    expect(changes).toEqual(['power on by soft rebooting']);
    await waitForSushyPower(env, uuid, 'On', minutes(2));
    const host = await waitForHost(kubectl, namespace, 'no-power-off', (candidate) => candidate.status?.poweredOn === true,
      { timeoutMs: minutes(1), failOnError: true });
    expect(host.status?.provisioning?.state).toBe('provisioned');
    expect((await ironic.node(node.uuid)).power_state).toBe('power on');
  }, minutes(6));

  it('deleting a powered-on provisioned host leaves its server powered off', async () => {
    const uuid = system(POWER).uuid;
    await waitForSushyPower(env, uuid, 'On', minutes(1));
    const node = await nodeOf('power');
    await kubectl.ok(['delete', 'bmh', 'power', '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await getHost(kubectl, namespace, 'power')) ? undefined : true), { timeoutMs: minutes(4), what: 'the host to be deleted' });
    expect((await fetch(`${env.ironicUrl}/v1/nodes/${node.uuid}`, { headers: { 'x-openstack-ironic-api-version': '1.95' } })).status).toBe(404);
    // The node is gone, so nothing can power the server on again: Ironic's last change was a power off.
    expect(ironicPowerChanges(env, node.uuid).at(-1)).toMatch(/^power off by /);
    await waitForSushyPower(env, uuid, 'Off', minutes(1));
  }, minutes(6));
});
