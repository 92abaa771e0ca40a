import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { prepareOperatorWebhook, type OperatorWebhook } from '../../../hack/stack/operator-webhook.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { hostEvents, tearDownHostTest, waitForHost } from './hosts.ts';

// BMCEventSubscription on emulated servers 80 and 81, as BMO does it: Ironic's redfish vendor
// passthru (create_subscription / delete_subscription) makes and removes a Redfish event
// subscription on the BMC. The stack's BMC (sushy-tools with hack/stack/sushy/fake_events.py)
// keeps them like a real one; what it holds, HTTP headers included, is read back from it. Server
// 81's subscription names a destination the webhook and Ironic accept and the BMC refuses.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const minutes = (n: number) => n * 60_000;
const SERVERS = { subscribed: 80, refused: 81 } as const;
type HostName = keyof typeof SERVERS;
const LABEL = 'e2e-bmcevent';
const DENIED = 'admission webhook "bmceventsubscription.metal3.io" denied the request: ';
// The event receiver's credentials: they must reach the BMC and appear nowhere else.
const TOKEN = `Bearer bmcevent-${Date.now().toString(36)}-receiver-token`;
const TENANT = `rack-4-tenant-${Date.now().toString(36)}`;
// For the subscription the BMC refuses: Ironic's own ERROR log quotes its whole payload.
const REFUSED_TOKEN = `Bearer bmcevent-${Date.now().toString(36)}-refused-token`;

interface Subscription {
  metadata: { finalizers?: string[]; deletionTimestamp?: string };
  spec: Record<string, unknown>;
  status?: { subscriptionID?: string; error?: string };
}
/** A subscription as the BMC holds it (the test route returns the headers a Redfish GET hides). */
interface HeldSubscription { Id: string; Destination: string; Context: string; Protocol: string; HttpHeaders: Record<string, string>[] }

let namespace = '';
let operator: OperatorProcess | undefined;
let webhook: OperatorWebhook | undefined;

const authorization = `Basic ${Buffer.from(`${env.bmcCredentials!.username}:${env.bmcCredentials!.password}`).toString('base64')}`;
const destination = (host: HostName) => `http://127.0.0.1:9/events/${namespace}/${host}`;

/** Every subscription the BMC holds. */
async function heldByBmc(): Promise<HeldSubscription[]> {
  const response = await fetch(`${env.sushyUrl}/metal3-ts/event-subscriptions`, { headers: { authorization } });
  if (!response.ok) throw new Error(`GET event subscriptions: HTTP ${response.status}`);
  return (await response.json()) as HeldSubscription[];
}

/** This file's subscriptions on the BMC (the BMC is shared by every server of the stack). */
const ours = async () => (await heldByBmc()).filter((held) => held.Context.startsWith(namespace));

async function getSubscription(name: string): Promise<Subscription | undefined> {
  const result = await kubectl.run(['get', 'bmceventsubscription', name, '-n', namespace, '-o', 'json']);
  return result.code === 0 ? (JSON.parse(result.stdout) as Subscription) : undefined;
}

async function waitForSubscription(name: string, accept: (found: Subscription | undefined) => boolean, what: string): Promise<Subscription | undefined> {
  let last: Subscription | undefined;
  return waitFor(async () => {
    last = await getSubscription(name);
    return accept(last) ? { found: last } : undefined;
  }, { timeoutMs: minutes(3), intervalMs: 1_000, what: `BMCEventSubscription ${name} ${what}` })
    .then((result) => result.found)
    .catch((error: unknown) => {
      throw new Error(`${(error as Error).message}; last: ${JSON.stringify(last ?? null)}`, { cause: error });
    });
}

const applySubscription = (name: string, spec: Record<string, unknown>) => kubectl.run(['apply', '-f', '-'], JSON.stringify({
  apiVersion: 'metal3.io/v1alpha1', kind: 'BMCEventSubscription', metadata: { name, namespace }, spec,
}));

const specFor = (host: HostName, target = destination(host)) => ({
  hostName: host, destination: target, context: `${namespace}/${host}`, httpHeadersRef: { name: `${host}-headers`, namespace },
});

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/bmceventsubscriptions.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, LABEL);
  webhook = await prepareOperatorWebhook({ target: env, dir: join(env.stateDir, 'webhooks', namespace), name: `bmcevent-${namespace}`, namespace });
  operator = startOperatorProcess({ env, namespace, label: LABEL, extraEnv: webhook.operatorEnv });
  await webhook.register(operator.process);
  const hosts = Object.entries(SERVERS).flatMap(([name, index]) => {
    const system = env.systems[index]!;
    return [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
      {
        // Registered is all a subscription needs: no inspection, no power, no cleaning.
        apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace, annotations: { 'inspect.metal3.io': 'disabled' } },
        spec: { online: false, bootMACAddress: system.macs[0], bmc: { address: system.redfishAddress, credentialsName: `${name}-bmc` }, automatedCleaningMode: 'disabled' },
      },
    ];
  });
  const headers = [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'subscribed-headers', namespace }, type: 'Opaque', stringData: { Authorization: TOKEN, 'X-Tenant': TENANT } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'refused-headers', namespace }, type: 'Opaque', stringData: { Authorization: REFUSED_TOKEN } },
  ];
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...hosts, ...headers] }));
}, minutes(3));

afterAll(async () => {
  await webhook?.unregister();
  if (namespace) {
    // Subscriptions the operator could not release keep their finalizer without it.
    await kubectl.run(['delete', 'bmceventsubscription', '--all', '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await kubectl.run(['get', 'bmceventsubscription', '-n', namespace, '-o', 'name'])).stdout.trim() ? undefined : true),
      { timeoutMs: minutes(1), what: 'subscriptions to be deleted' }).catch(() => undefined);
  }
  await tearDownHostTest({ env, kubectl, namespace, operator });
  if (!namespace) return;
  const left = (await kubectl.run(['get', 'bmceventsubscription', '-n', namespace, '-o', 'name'])).stdout.split('\n').filter(Boolean);
  for (const name of left) await kubectl.run(['patch', name, '-n', namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
}, minutes(5));

describe('BMCEventSubscription: Redfish event subscriptions through Ironic', () => {
  it('refuses what BMO refuses, in the webhook, and stores none of it', async () => {
    const cases = [
      { spec: { ...specFor('subscribed'), destination: 'http://127.0.0.1:9' }, message: 'hostname-only destination must have a trailing slash' },
      { spec: { ...specFor('subscribed'), destination: 'events' }, message: 'destination is invalid: parse "events": invalid URI for request' },
      { spec: { destination: destination('subscribed') }, message: 'hostName cannot be empty' },
      {
        spec: { ...specFor('subscribed'), destination: '', httpHeadersRef: { name: 'subscribed-headers', namespace: 'default' } },
        message: '[httpHeadersRef secret must be in the same namespace as the BMCEventSubscription, destination cannot be empty]',
      },
    ];
    for (const { spec, message } of cases) {
      const result = await applySubscription('refused-by-webhook', spec);
      expect({ code: result.code, error: result.stderr.slice(result.stderr.indexOf('admission webhook')).trim() }).toEqual({ code: 1, error: `${DENIED}${message}` });
    }
    expect(await getSubscription('refused-by-webhook')).toBeUndefined();
  }, minutes(1));

  it('makes the subscription on the BMC with the destination, context and the Secret\'s headers', async () => {
    await waitForHost(kubectl, namespace, 'subscribed', (host) => Boolean(host.status?.provisioning?.ID), { timeoutMs: minutes(4), failOnError: true });
    expect(await ours()).toEqual([]);

    expect((await applySubscription('alerts', specFor('subscribed'))).stderr).toBe('');
    const made = await waitForSubscription('alerts', (found) => Boolean(found?.status?.subscriptionID), 'to get its subscription ID');
    expect(made?.metadata.finalizers).toEqual(['bmceventsubscription.metal3.io']);
    const id = made!.status!.subscriptionID!;
    expect(made?.status?.error ?? '').toBe('');
    expect(await ours()).toEqual([{
      Id: id, Destination: destination('subscribed'), Context: `${namespace}/subscribed`, Protocol: 'Redfish', EventTypes: ['Alert'],
      HttpHeaders: [{ Authorization: TOKEN }, { 'X-Tenant': TENANT }],
    }]);
    // Over Redfish the BMC, like a real one, never gives the headers back.
    const member = await fetch(`${env.sushyUrl}/redfish/v1/EventService/Subscriptions/${id}`, { headers: { authorization } });
    expect(await member.json()).toMatchObject({ Id: id, Destination: destination('subscribed'), HttpHeaders: [] });
    expect(await hostEvents(kubectl, namespace, 'alerts')).toContainEqual(`SubscriptionCreated: subscription ${id} created on the BMC of host subscribed`);

    const table = await kubectl.ok(['get', 'bmcevent', '-n', namespace]);
    expect(table.split('\n')[0]).toMatch(/^NAME\s+HOST\s+SUBSCRIPTION\s+ERROR\s+AGE$/);
    expect(table).toMatch(new RegExp(`alerts\\s+subscribed\\s+${id}\\s`));
    expect(await kubectl.ok(['get', 'bes', 'alerts', '-n', namespace, '-o', 'wide'])).toContain(destination('subscribed'));
  }, minutes(6));

  it('refuses a change of the spec: a subscription is recreated, not updated', async () => {
    const result = await kubectl.run(['patch', 'bmceventsubscription', 'alerts', '-n', namespace, '--type=merge', '-p', '{"spec":{"context":"changed"}}']);
    expect(result.stderr).toContain(`${DENIED}subscriptions cannot be updated, please recreate it`);
    expect((await getSubscription('alerts'))?.spec.context).toBe(`${namespace}/subscribed`);
  }, minutes(1));

  it('removes the subscription from the BMC when deleted, then lets it go', async () => {
    const id = (await getSubscription('alerts'))!.status!.subscriptionID!;
    expect((await ours()).map((held) => held.Id)).toEqual([id]);
    await kubectl.ok(['delete', 'bmceventsubscription', 'alerts', '-n', namespace, '--wait=false']);
    await waitForSubscription('alerts', (found) => found === undefined, 'to be gone');
    expect(await ours()).toEqual([]);
  }, minutes(4));

  it('records a subscription the BMC refuses with Ironic\'s words and without the header values', async () => {
    await waitForHost(kubectl, namespace, 'refused', (host) => Boolean(host.status?.provisioning?.ID), { timeoutMs: minutes(4), failOnError: true });
    // The webhook and Ironic take an ftp URL; a Redfish BMC sends events over HTTP only.
    expect((await applySubscription('ftp-alerts', specFor('refused', 'ftp://127.0.0.1/events'))).stderr).toBe('');
    const refused = await waitForSubscription('ftp-alerts', (found) => Boolean(found?.status?.error), 'to record an error');
    expect(refused?.status?.error).toMatch(/^failed to create a subscription: .*Failed to create subscription on node [0-9a-f-]+\. Subscription payload: <redacted>\. Error: .*not an http or https URL/);
    expect(refused?.status?.subscriptionID).toBeUndefined();
    expect(await hostEvents(kubectl, namespace, 'ftp-alerts')).toContainEqual(expect.stringMatching(/^BMCEventSubscriptionError: failed to create a subscription: .*<redacted>/));
    expect(await ours()).toEqual([]);

    // Nothing on the BMC: deleting it needs no call to remove one.
    await kubectl.ok(['delete', 'bmceventsubscription', 'ftp-alerts', '-n', namespace, '--wait=false']);
    await waitForSubscription('ftp-alerts', (found) => found === undefined, 'to be gone');
  }, minutes(6));

  it('kept the header values out of events and logs (Ironic\'s too, but for the payload it quotes on a refusal)', async () => {
    const events = await kubectl.ok(['get', 'events', '-n', namespace, '-o', 'json']);
    const log = readFileSync(join(env.stateDir, 'logs', `operator-${LABEL}.log`), 'utf8');
    expect(log).toContain('subscription created on the BMC');
    expect(log).toContain('failed to create a subscription');
    const ironicLog = readFileSync(join(env.stateDir, 'logs', 'ironic.log'), 'utf8');
    expect(ironicLog).toContain(`Context': '${namespace}/refused'`);
    const secrets = [TOKEN.split(' ')[1]!, TENANT, REFUSED_TOKEN.split(' ')[1]!];
    for (const [what, text] of [['events', events], ['operator log', log], ['Ironic log', ironicLog]] as const) {
      const leaks = secrets.filter((secret) => text.includes(secret) && !(what === 'Ironic log' && secret === secrets[2]));
      expect({ what, leaks }).toEqual({ what, leaks: [] });
    }
  }, minutes(1));
});
