import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { freePort } from '../../../hack/stack/ports.ts';
import { releaseIronicNode, reserveIronicNode, storeIronicNodeHealth } from '../../support/ironic-database.ts';
import { ironicApiRequests, ironicNodeMessages, ironicPowerChanges, type IronicApiRequest } from '../../support/ironic-log.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  getHost, hostEventCounts, hostEvents, metricValue, recordsSince, serverRecords, sushyPowerState,
  tearDownHostTest, waitForHost, waitForSushyPower, type Host,
} from './hosts.ts';

// Day-2 failure handling on real Ironic, sushy-tools and the agent simulator, three scenarios run
// side by side on emulated servers 49-51 (each starts in beforeAll; each test awaits its own):
// 49: a server whose OS ignores graceful shutdowns, so the soft power off fails and a hard one
//     follows; 50: wrong BMC credentials, failing registration again and again with BMO's
//     backoff, then fixed; 51: Ironic's node health Warning, then a conductor lock held on the
//     node while its power, and later its provision state, is to change. Hosts are externally
//     provisioned (adopted, never inspected or imaged), which is all power management needs.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const minutes = (n: number) => n * 60_000;
const SOFT_IGNORED = 49;
const WRONG_CREDENTIALS = 50;
const LOCKED = 51;
/** The conductor that "holds" the lock in the locked scenario; no such conductor exists. */
const LOCK_HOLDER = 'metal3-ts-e2e-lock-holder';
/**
 * The provisioner reuses a node it read up to this long ago (its node cache's default TTL), so a
 * lock taken just before the change could be missed by a decision made on an older read: the
 * change waits this out, so every read it is decided on shows the lock.
 */
const NODE_CACHE_TTL_MS = 1_000;
/** BMO's backoff after the n-th consecutive failure: 2^n minutes less up to half of it at random. */
const backoffMinimumMs = (errorCount: number) => (2 ** errorCount * 60_000) / 2;

let namespace = '';
let operator: OperatorProcess;
let metricsUrl = '';
const baselines = new Map<number, SystemRecords>();
let lockedNode: string | undefined;

type HostWithConditions = Host & { status?: Host['status'] & { conditions?: { type: string; status: string; reason: string }[] } };

const system = (index: number) => env.systems[index]!;
const records = (index: number) => serverRecords(env, system(index).uuid);
const since = async (index: number) => recordsSince(await records(index), baselines.get(index)!);

/** What the software on a server does (the agent simulator plays it): here, whether it ignores graceful shutdowns. */
async function setServerOs(index: number, settings: { ignoresGracefulShutdown: boolean }): Promise<void> {
  const response = await fetch(`${env.agentSimulatorUrl}/systems/${system(index).uuid}/os`, { method: 'PUT', body: JSON.stringify(settings) });
  if (!response.ok) throw new Error(`PUT /systems/${system(index).uuid}/os -> ${response.status}: ${await response.text()}`);
}

function externalHost(name: string, index: number) {
  return {
    apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace },
    spec: {
      online: true,
      externallyProvisioned: true,
      bootMACAddress: system(index).macs[0],
      bmc: { address: system(index).redfishAddress, credentialsName: `${name}-bmc` },
      automatedCleaningMode: 'disabled',
    },
  };
}

const secret = (name: string, stringData: Record<string, string>) =>
  ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', stringData });

const setOnline = (name: string, online: boolean) =>
  kubectl.ok(['patch', 'bmh', name, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { online } })]);

async function reconciles(name: string): Promise<number> {
  return metricValue(await (await fetch(metricsUrl)).text(), 'metal3_reconcile_total', { namespace, host: name });
}

let probes = 0;
const poke = (name: string) => kubectl.ok(['annotate', 'bmh', name, '-n', namespace, '--overwrite', `day2.metal3-ts.test/probe=${++probes}`]);

const healthy = (found: HostWithConditions | undefined) => {
  const condition = found?.status?.conditions?.find((c) => c.type === 'Healthy');
  return condition ? `${condition.status}/${condition.reason}` : undefined;
};

/** Ironic's node health at the microversion that shows it (1.109). */
async function ironicHealth(nodeId: string): Promise<string | null> {
  const response = await fetch(`${env.ironicUrl}/v1/nodes/${nodeId}?fields=health`, { headers: { 'x-openstack-ironic-api-version': '1.109' } });
  if (!response.ok) throw new Error(`GET node ${nodeId} health -> ${response.status}`);
  return ((await response.json()) as { health: string | null }).health;
}

const adoptedAndOn = (host: Host) => host.status?.provisioning?.state === 'externally provisioned' && host.status.poweredOn === true;

async function softPowerOffFallsBackToHard(): Promise<void> {
  const name = 'soft-ignored';
  const uuid = system(SOFT_IGNORED).uuid;
  const host = await waitForHost(kubectl, namespace, name, adoptedAndOn, { timeoutMs: minutes(5), failOnError: true });
  await waitForSushyPower(env, uuid, 'On', minutes(1));
  const nodeId = host.status!.provisioning!.ID!;
  await setServerOs(SOFT_IGNORED, { ignoresGracefulShutdown: true });
  const changesBefore = ironicPowerChanges(env, nodeId).length;
  const eventsBefore = await hostEventCounts(kubectl, namespace, name);

  await setOnline(name, false);
  // Ironic sends GracefulShutdown, waits the operator's 180 s for the power to go off, and gives
  // up; the operator records the failure as BMO does, with the server still on.
  const failedSoft = await waitForHost(kubectl, namespace, name, (found) => found.status?.errorType === 'power management error',
    { timeoutMs: minutes(6) });
  expect(failedSoft.status?.errorMessage).toMatch(/^Continuing with hard poweroff after soft poweroff fails\. More details: /);
  expect(failedSoft.status?.errorCount).toBe(1);
  expect(failedSoft.status?.operationalStatus).toBe('error');
  expect(await sushyPowerState(env, uuid)).toBe('On');
  // Ironic's conductor asked for a soft power off and gave up waiting for it.
  const messages = ironicNodeMessages(env, nodeId).map((message) => `${message.level} ${message.text}`);
  const softRequested = messages.findLastIndex((text) => text.endsWith("requested state is 'soft power off'."));
  expect(softRequested).toBeGreaterThanOrEqual(0);
  expect(messages.slice(softRequested)).toContainEqual(expect.stringMatching(/^ERROR Timed out after 180 secs waiting for power off on node /));

  // After the backoff the operator asks again, hard this time.
  await waitForSushyPower(env, uuid, 'Off', minutes(4));
  const off = await waitForHost(kubectl, namespace, name, (found) => found.status?.poweredOn === false && found.status.operationalStatus === 'OK',
    { timeoutMs: minutes(2) });
  expect(off.status?.errorType).toBeUndefined();
  expect((await ironic.node(nodeId)).power_state).toBe('power off');
  // Ironic completed one power change, the hard one; the server saw one graceful shutdown, ignored.
  expect(ironicPowerChanges(env, nodeId).slice(changesBefore)).toEqual(['power off by power off']);
  expect((await since(SOFT_IGNORED)).gracefulShutdowns).toEqual([expect.objectContaining({ outcome: 'ignored' })]);
  const events = await hostEventCounts(kubectl, namespace, name);
  const added = (key: string) => (events.get(key) ?? 0) - (eventsBefore.get(key) ?? 0);
  expect([added('PowerOff: Host soft powered off'), added('PowerOff: Host powered off')]).toEqual([1, 1]);
}

async function backoffThenRecovery(): Promise<void> {
  const name = 'retried';
  const nodeName = `${namespace}~${name}`;
  // Each failure is seen once its errorCount shows; a retry comes at the earliest a minute later.
  const seen: Host[] = [];
  for (const count of [1, 2, 3]) {
    const found = await waitForHost(kubectl, namespace, name, (candidate) => (candidate.status?.errorCount ?? 0) >= count,
      { timeoutMs: minutes(2 ** count + 3) });
    expect(found.status).toMatchObject({ errorCount: count, errorType: 'registration error', operationalStatus: 'error' });
    expect(found.status?.provisioning?.state).toBe('registering');
    seen.push(found);
  }
  console.log(`registration error: ${seen[0]!.status?.errorMessage}`);
  const nodeId = (await ironic.node(nodeName)).uuid;
  // Ironic saw one `manage` per attempt (the verification of the BMC credentials), spaced at
  // least BMO's backoff for the errorCount the failure before it left.
  const attempts = ironicApiRequests(env, `/v1/nodes/${nodeId}/states/provision`).filter((request) => request.method === 'PUT');
  expect(attempts.map((attempt) => attempt.status)).toEqual([202, 202, 202]);
  const gaps = attempts.slice(1).map((attempt, index) => attempt.at.getTime() - attempts[index]!.at.getTime());
  console.log(`retries of the registration came after ${gaps.map((gap) => `${(gap / 1000).toFixed(1)} s`).join(', ')}`);
  expect(gaps[0]).toBeGreaterThanOrEqual(backoffMinimumMs(1));
  expect(gaps[1]).toBeGreaterThanOrEqual(backoffMinimumMs(2));
  expect((await ironic.node(nodeId)).provision_state).toBe('enroll');

  // The right password: the Secret's change wakes the host, the error clears and it carries on.
  await kubectl.ok(['patch', 'secret', `${name}-bmc`, '-n', namespace, '--type=merge', '-p', JSON.stringify({ stringData: env.bmcCredentials })]);
  const fixed = await waitForHost(kubectl, namespace, name, adoptedAndOn, { timeoutMs: minutes(3) });
  expect(fixed.status).toMatchObject({ errorCount: 0, operationalStatus: 'OK' });
  expect(fixed.status?.errorType).toBeUndefined();
  const node = await ironic.node(nodeId);
  expect([node.provision_state, node.power_state]).toEqual(['active', 'power on']);
  await waitForSushyPower(env, system(WRONG_CREDENTIALS).uuid, 'On', minutes(1));
  // The BMC's refusal was said once, however many attempts it failed, and its end named as such.
  // (Events are written off the reconcile path, so the last may land after the status.)
  const bmcEvents = await waitFor(async () => {
    const events = (await hostEvents(kubectl, namespace, name)).filter((event) => /^BMC(NotAnswering|RefusesCredentials|Answering):/.test(event));
    return events.at(-1)?.startsWith('BMCAnswering') ? events : undefined;
  }, { timeoutMs: minutes(1), what: `${name}'s event for the BMC accepting the credentials` });
  expect(bmcEvents).toEqual([
    expect.stringMatching(/^BMCRefusesCredentials: the BMC refuses the credentials: .*returned code 401/),
    'BMCAnswering: the BMC accepts the credentials again',
  ]);
}

async function warningHealth(): Promise<void> {
  const name = 'locked';
  const host = await waitForHost(kubectl, namespace, name, adoptedAndOn, { timeoutMs: minutes(5), failOnError: true });
  const nodeId = host.status!.provisioning!.ID!;
  await waitFor(async () => ((await ironicHealth(nodeId)) === 'OK' ? true : undefined), { timeoutMs: minutes(1), what: 'Ironic to read the health' });
  await waitFor(async () => {
    await poke(name);
    return healthy(await kubectl.json<HostWithConditions>(['get', 'bmh', name, '-n', namespace])) === 'True/Healthy' ? true : undefined;
  }, { timeoutMs: minutes(1), intervalMs: 2_000, what: `${name} Healthy` });

  // A BMC reporting Warning (written into Ironic's database: sushy-tools always reports OK, and
  // Ironic's power sync, every 10 s here, puts OK back): BMO's Healthy False, reason Warning.
  await waitFor(async () => {
    storeIronicNodeHealth(env.stateDir, nodeId, 'Warning');
    await poke(name);
    return healthy(await kubectl.json<HostWithConditions>(['get', 'bmh', name, '-n', namespace])) === 'False/Warning' ? true : undefined;
  }, { timeoutMs: minutes(2), intervalMs: 2_000, what: `${name} to turn Warning` });
  await waitFor(async () => ((await ironicHealth(nodeId)) === 'OK' ? true : undefined), { timeoutMs: minutes(1), what: 'Ironic to read OK again' });
  await waitFor(async () => {
    await poke(name);
    return healthy(await kubectl.json<HostWithConditions>(['get', 'bmh', name, '-n', namespace])) === 'True/Healthy' ? true : undefined;
  }, { timeoutMs: minutes(1), intervalMs: 2_000, what: `${name} Healthy again` });
}

/**
 * Takes the node's lock as a conductor running a task would, makes `change` to the host, waits
 * until the host is `waitingIn` and the operator has looked at it twice more, and returns what
 * reached Ironic for the node meanwhile. The lock stays held; `releaseLock` ends it.
 */
async function changeUnderNodeLock(name: string, nodeId: string, options: { change: () => Promise<unknown>; waitingIn: (host: Host) => boolean }):
  Promise<{ whileLocked: IronicApiRequest[]; requestsBefore: number }> {
  // A failed earlier test may have left its lock held: that must not fail this one too.
  if (lockedNode) releaseLock(lockedNode);
  await waitFor(async () => (reserveIronicNode(env.stateDir, nodeId, LOCK_HOLDER) ? true : undefined),
    { timeoutMs: minutes(1), intervalMs: 200, what: 'the node lock' });
  lockedNode = nodeId;
  const requestsBefore = ironicApiRequests(env, nodeId).length;
  await delay(NODE_CACHE_TTL_MS + 500);
  await options.change();
  await waitForHost(kubectl, namespace, name, options.waitingIn, { timeoutMs: minutes(1), failOnError: true });
  const reconcilesBefore = await reconciles(name);
  await waitFor(async () => ((await reconciles(name)) >= reconcilesBefore + 2 ? true : undefined),
    { timeoutMs: minutes(1), what: `two more reconciles of ${name}` });
  return { whileLocked: ironicApiRequests(env, nodeId).slice(requestsBefore), requestsBefore };
}

function releaseLock(nodeId: string): void {
  releaseIronicNode(env.stateDir, nodeId, LOCK_HOLDER);
  lockedNode = undefined;
}

/** Ironic was only read: nothing written, nothing refused with 409 NodeLocked. */
function expectOnlyReads(requests: IronicApiRequest[]): void {
  expect(requests.filter((request) => request.method !== 'GET' || request.status === 409)).toEqual([]);
  expect(requests.length).toBeGreaterThan(0);
}

async function powerChangeWaitsForNodeLock(): Promise<void> {
  const name = 'locked';
  const uuid = system(LOCKED).uuid;
  const host = await waitForHost(kubectl, namespace, name, adoptedAndOn, { timeoutMs: minutes(5), failOnError: true });
  const nodeId = host.status!.provisioning!.ID!;
  const changesBefore = ironicPowerChanges(env, nodeId).length;
  const { whileLocked, requestsBefore } = await changeUnderNodeLock(name, nodeId, { change: () => setOnline(name, false), waitingIn: () => true });
  expectOnlyReads(whileLocked);
  expect(await sushyPowerState(env, uuid)).toBe('On');
  const waiting = await getHost(kubectl, namespace, name);
  expect(waiting?.status).toMatchObject({ poweredOn: true, operationalStatus: 'OK' });

  releaseLock(nodeId);
  await waitForSushyPower(env, uuid, 'Off', minutes(2));
  await waitForHost(kubectl, namespace, name, (found) => found.status?.poweredOn === false, { timeoutMs: minutes(2), failOnError: true });
  expect(ironicPowerChanges(env, nodeId).slice(changesBefore)).toEqual(['power off by soft power off']);
  const afterRelease = ironicApiRequests(env, nodeId).slice(requestsBefore);
  expect(afterRelease.filter((request) => request.method === 'PUT').map((request) => `${request.path} ${request.status}`))
    .toEqual([`/v1/nodes/${nodeId}/states/power 202`]);
  expect(afterRelease.filter((request) => request.status === 409)).toEqual([]);
}

async function provisionChangeWaitsForNodeLock(): Promise<void> {
  const name = 'locked';
  const nodeId = (await getHost(kubectl, namespace, name))!.status!.provisioning!.ID!;
  // No longer externally provisioned and no image to keep: provisioned, then deprovisioned
  // (bmo.md 2.3), which is Ironic's `deleted` on the active node.
  const { whileLocked, requestsBefore } = await changeUnderNodeLock(name, nodeId, {
    change: () => kubectl.ok(['patch', 'bmh', name, '-n', namespace, '--type=merge', '-p', '{"spec":{"externallyProvisioned":false}}']),
    waitingIn: (found) => found.status?.provisioning?.state === 'deprovisioning',
  });
  expectOnlyReads(whileLocked);
  expect((await ironic.node(nodeId)).provision_state).toBe('active');

  releaseLock(nodeId);
  await waitForHost(kubectl, namespace, name, (found) => found.status?.provisioning?.state === 'available', { timeoutMs: minutes(4), failOnError: true });
  expect((await ironic.node(nodeId)).provision_state).toBe('available');
  const afterRelease = ironicApiRequests(env, nodeId).slice(requestsBefore);
  const provisionChanges = afterRelease.filter((request) => request.method === 'PUT' && request.path.endsWith('/states/provision'));
  expect(provisionChanges.length).toBeGreaterThan(0);
  expect(provisionChanges.map((request) => request.status)).toEqual(provisionChanges.map(() => 202));
  expect(afterRelease.filter((request) => request.status === 409)).toEqual([]);
}

/** Started in beforeAll so the three servers' scenarios run side by side; each test awaits its own. */
let scenarios: Record<'softPowerOff' | 'backoff' | 'health' | 'powerLock' | 'provisionLock', Promise<void>>;

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-day2-fallback');
  for (const index of [SOFT_IGNORED, WRONG_CREDENTIALS, LOCKED]) baselines.set(index, await records(index));
  await setServerOs(SOFT_IGNORED, { ignoresGracefulShutdown: false });
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  operator = startOperatorProcess({ env, namespace, label: 'day2-power-fallback-errors', extraEnv: { METRICS_BIND_ADDRESS: `127.0.0.1:${port}` } });
  await waitFor(async () => ((await fetch(metricsUrl).catch(() => undefined))?.ok ? true : undefined), { timeoutMs: 30_000, what: 'the metrics endpoint' });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: [
      secret('soft-ignored-bmc', env.bmcCredentials!),
      secret('retried-bmc', { username: env.bmcCredentials!.username, password: 'not-the-password' }),
      secret('locked-bmc', env.bmcCredentials!),
      externalHost('soft-ignored', SOFT_IGNORED),
      externalHost('retried', WRONG_CREDENTIALS),
      externalHost('locked', LOCKED),
    ],
  }));
  // One host, one step after the other, each whatever the one before found.
  const health = warningHealth();
  const powerLock = health.then(powerChangeWaitsForNodeLock, powerChangeWaitsForNodeLock);
  scenarios = {
    softPowerOff: softPowerOffFallsBackToHard(),
    backoff: backoffThenRecovery(),
    health,
    powerLock,
    provisionLock: powerLock.then(provisionChangeWaitsForNodeLock, provisionChangeWaitsForNodeLock),
  };
  // Each is awaited by its test; until then a failure must not count as unhandled.
  for (const scenario of Object.values(scenarios)) scenario.catch(() => undefined);
}, minutes(2));

afterAll(async () => {
  if (lockedNode) releaseIronicNode(env.stateDir, lockedNode, LOCK_HOLDER);
  await setServerOs(SOFT_IGNORED, { ignoresGracefulShutdown: false }).catch(() => undefined);
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('day-2 failures on the emulated hardware', () => {
  it('a soft power off the server ignores fails after Ironic\'s wait, and the operator powers it off hard', () => scenarios.softPowerOff, minutes(12));

  it('errorCount grows 1, 2, 3 with retries at least BMO\'s backoff apart; the right credentials clear the error and the host is adopted', () =>
    scenarios.backoff, minutes(14));

  it('Healthy is False with reason Warning while Ironic reports the node\'s health as Warning', () => scenarios.health, minutes(8));

  it('a power change waits while a conductor holds the node\'s lock, sending Ironic nothing, and happens once it is released', () =>
    scenarios.powerLock, minutes(10));

  it('a provision-state change (deprovisioning) waits out the node\'s lock the same way', () => scenarios.provisionLock, minutes(10));
});
