import { describe, expect, it } from '@jest/globals';
import { BMCEVENTSUBSCRIPTION_FINALIZER } from '../../api/finalizers.ts';
import type { EventSubscriptionRequest, Provisioner } from '../../provisioner/provisioner.ts';
import { NeedsRegistrationError, done, failed } from '../../provisioner/result.ts';
import type { ProvisionerResult } from '../../provisioner/result.ts';
import { KubeStatusError } from '../../runtime/kube-errors.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { silentLogger } from '../../runtime/logger.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import type { HeaderSecret } from './http-headers.ts';
import { BMCEventSubscriptionReconciler, SUBSCRIPTION_DELAYS } from './reconciler.ts';

const NAME = { namespace: 'test', name: 'alerts' };
const TOKEN = 'Bearer do-not-show';
const host = (id?: string): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { namespace: 'test', name: 'host-0', uid: 'host-uid' },
  spec: { online: true }, status: { provisioning: { ...(id ? { ID: id } : {}), state: 'available' } },
});
const subscription = (metadata: Record<string, unknown> = {}, status?: Record<string, unknown>): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'BMCEventSubscription', metadata: { ...NAME, uid: 'sub-uid', resourceVersion: '3', ...metadata },
  spec: { hostName: 'host-0', destination: 'https://127.0.0.1:9000/events', context: 'rack-4', httpHeadersRef: { name: 'headers', namespace: 'test' } },
  ...(status ? { status } : {}),
});
const withFinalizer = { finalizers: [BMCEVENTSUBSCRIPTION_FINALIZER] };
const headerSecret: HeaderSecret = {
  metadata: { namespace: 'test', name: 'headers' },
  data: { Authorization: Buffer.from(TOKEN).toString('base64'), 'X-Auth-Tenant': Buffer.from('blue').toString('base64') },
};

interface SetUpOptions {
  subscription: KubeObject;
  host?: KubeObject;
  secret?: HeaderSecret;
  added?: ProvisionerResult<{ subscriptionId: string }> | Error;
  removed?: ProvisionerResult | Error;
  /** What the informer shows (default: `subscription`, always). */
  cached?: () => KubeObject;
  /** What the API server answers a patch with (default: `subscription`). */
  written?: (subresource: string | undefined) => KubeObject;
}

function setUp(options: SetUpOptions) {
  const patches: Array<{ patch: unknown; subresource?: string }> = [];
  const client = {
    patch: async (_name: unknown, patch: unknown, patchOptions: { subresource?: string }) => {
      patches.push({ patch, ...(patchOptions.subresource ? { subresource: patchOptions.subresource } : {}) });
      return options.written?.(patchOptions.subresource) ?? options.subscription;
    },
  } as unknown as ResourceClient<KubeObject>;
  const requests: EventSubscriptionRequest[] = [];
  const removals: string[] = [];
  const provisioner = {
    addEventSubscription: async (call: { subscription: EventSubscriptionRequest }) => {
      requests.push(call.subscription);
      if (options.added instanceof Error) throw options.added;
      return options.added ?? done({ subscriptionId: '1' });
    },
    removeEventSubscription: async (call: { subscriptionId: string }) => {
      removals.push(call.subscriptionId);
      if (options.removed instanceof Error) throw options.removed;
      return options.removed ?? done();
    },
  } as unknown as Provisioner;
  const events: string[] = [];
  const reconciler = new BMCEventSubscriptionReconciler({
    subscriptions: { client, cache: { get: () => options.cached?.() ?? options.subscription } },
    hosts: { get: () => options.host },
    secrets: {
      get: async () => {
        if (options.secret) return options.secret;
        throw new KubeStatusError({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404, message: 'secrets "headers" not found' });
      },
    },
    provisioner,
    events: { event: (_object: KubeObject, event: { type: string; reason: string; note?: string }) => events.push(`${event.type} ${event.reason}: ${event.note ?? ''}`) } as never,
  });
  const logged: unknown[] = [];
  const record = (...entry: unknown[]) => { logged.push(entry); };
  const log = { ...silentLogger(), info: record, warn: record, error: record, debug: record };
  const reconcile = () => reconciler.reconcile(NAME, { log, signal: new AbortController().signal, reconcileID: 'r', controller: 'bmceventsubscription' });
  return { patches, events, requests, removals, logged, reconcile };
}

describe('BMCEventSubscription controller', () => {
  it('adds BMO\'s finalizer, then, in the same pass, subscribes with the Secret\'s headers and keeps the BMC\'s Id', async () => {
    const first = setUp({ subscription: subscription(), host: host('node-1'), secret: headerSecret, added: done({ subscriptionId: '42' }) });
    expect(await first.reconcile()).toEqual({});
    expect(first.patches).toEqual([
      { patch: [{ op: 'test', path: '/metadata/resourceVersion', value: '3' }, { op: 'add', path: '/metadata/finalizers', value: [BMCEVENTSUBSCRIPTION_FINALIZER] }] },
      { patch: { status: { subscriptionID: '42', error: '' } }, subresource: 'status' },
    ]);
    expect(first.requests).toEqual([{ destination: 'https://127.0.0.1:9000/events', context: 'rack-4', httpHeaders: [{ Authorization: TOKEN }, { 'X-Auth-Tenant': 'blue' }] }]);
    expect(first.events).toEqual(['Normal SubscriptionCreated: subscription 42 created on the BMC of host host-0']);

    const second = setUp({ subscription: subscription(withFinalizer), host: host('node-1'), secret: headerSecret, added: done({ subscriptionId: '42' }) });
    expect(await second.reconcile()).toEqual({});
    expect(second.patches).toEqual([{ patch: { status: { subscriptionID: '42', error: '' } }, subresource: 'status' }]);

    const third = setUp({ subscription: subscription(withFinalizer, { subscriptionID: '42' }), host: host('node-1'), secret: headerSecret });
    expect(await third.reconcile()).toEqual({});
    expect(third.requests).toEqual([]);
  });

  it('subscribes once when the finalizer\'s event brings it back before the cache shows the Id', async () => {
    const fresh = subscription({ resourceVersion: '3' });
    const finalized = subscription({ resourceVersion: '4', ...withFinalizer });
    const subscribed = subscription({ resourceVersion: '5', ...withFinalizer }, { subscriptionID: '42', error: '' });
    let cached = fresh;
    const run = setUp({ subscription: fresh, host: host('node-1'), secret: headerSecret, added: done({ subscriptionId: '42' }),
      cached: () => cached, written: (subresource) => (subresource === 'status' ? subscribed : finalized) });
    expect(await run.reconcile()).toEqual({});
    // The watch has delivered the finalizer's write, not yet the status's.
    cached = finalized;
    expect(await run.reconcile()).toEqual({});
    expect(run.requests).toHaveLength(1);
    expect(run.patches).toHaveLength(2);
    // Once the cache shows the status, it is read from there again.
    cached = subscribed;
    expect(await run.reconcile()).toEqual({});
    expect(run.requests).toHaveLength(1);
  });

  it('records a missing host, a missing Secret and a refused subscription in status and an event', async () => {
    const noHost = setUp({ subscription: subscription() });
    expect(await noHost.reconcile()).toEqual({ requeueAfter: SUBSCRIPTION_DELAYS.hostMissingMs });
    expect(noHost.patches).toEqual([{ patch: { status: { error: 'baremetal host "host-0" not found' } }, subresource: 'status' }]);
    expect(noHost.events).toEqual(['Warning BMCEventSubscriptionError: baremetal host "host-0" not found']);

    const noSecret = setUp({ subscription: subscription(withFinalizer), host: host('node-1') });
    expect(await noSecret.reconcile()).toEqual({ requeueAfter: SUBSCRIPTION_DELAYS.retryMs });
    expect(noSecret.patches).toEqual([{ patch: { status: { error: 'failed to retrieve HTTP headers secret: secret "headers" not found' } }, subresource: 'status' }]);
    expect(noSecret.requests).toEqual([]);

    const refused = setUp({ subscription: subscription(withFinalizer), host: host('node-1'), secret: headerSecret, added: failed('failed to create a subscription: BMC said no') });
    expect(await refused.reconcile()).toEqual({ requeueAfter: SUBSCRIPTION_DELAYS.retryMs });
    expect(refused.patches).toEqual([{ patch: { status: { error: 'failed to create a subscription: BMC said no' } }, subresource: 'status' }]);
    expect(refused.events).toEqual(['Warning BMCEventSubscriptionError: failed to create a subscription: BMC said no']);
    for (const run of [noHost, noSecret, refused]) expect(JSON.stringify([run.patches, run.events, run.logged])).not.toContain('do-not-show');
  });

  it('refuses a Secret in another namespace, as BMO does', async () => {
    const elsewhere = { ...subscription(withFinalizer), spec: { hostName: 'host-0', destination: 'https://127.0.0.1/', httpHeadersRef: { name: 'headers', namespace: 'other' } } };
    const run = setUp({ subscription: elsewhere, host: host('node-1'), secret: headerSecret });
    await run.reconcile();
    expect(run.patches[0]?.patch).toEqual({ status: { error: 'failed to retrieve HTTP headers secret: httpHeadersRef secret must be in the same namespace as the BMCEventSubscription' } });
  });

  it('waits for the host\'s Ironic node without recording an error', async () => {
    const unregistered = setUp({ subscription: subscription(withFinalizer), host: host(), secret: headerSecret });
    expect(await unregistered.reconcile()).toEqual({ requeueAfter: SUBSCRIPTION_DELAYS.registrationWaitMs });
    const nodeGone = setUp({ subscription: subscription(withFinalizer), host: host('node-1'), secret: headerSecret, added: new NeedsRegistrationError('node node-1 not found in Ironic') });
    expect(await nodeGone.reconcile()).toEqual({ requeueAfter: SUBSCRIPTION_DELAYS.registrationWaitMs });
    expect([...unregistered.patches, ...nodeGone.patches]).toEqual([]);
  });

  it('removes the subscription from the BMC before letting a deleted one go', async () => {
    const deleted = { ...withFinalizer, deletionTimestamp: '2026-01-01T00:00:00Z' };
    const removing = setUp({ subscription: subscription(deleted, { subscriptionID: '42' }), host: host('node-1') });
    expect(await removing.reconcile()).toEqual({});
    expect(removing.removals).toEqual(['42']);
    expect(removing.patches.map((entry) => entry.patch)).toEqual([[
      { op: 'test', path: '/metadata/finalizers/0', value: BMCEVENTSUBSCRIPTION_FINALIZER }, { op: 'remove', path: '/metadata/finalizers/0' },
    ]]);

    const refused = setUp({ subscription: subscription(deleted, { subscriptionID: '42' }), host: host('node-1'), removed: failed('failed to delete a subscription: BMC down') });
    expect(await refused.reconcile()).toEqual({ requeueAfter: SUBSCRIPTION_DELAYS.retryMs });
    expect(refused.patches).toEqual([{ patch: { status: { error: 'failed to delete a subscription: BMC down' } }, subresource: 'status' }]);

    // No Id (never subscribed) or no host (its node went with it): nothing to ask Ironic.
    for (const run of [setUp({ subscription: subscription(deleted), host: host('node-1') }), setUp({ subscription: subscription(deleted, { subscriptionID: '42' }) })]) {
      expect(await run.reconcile()).toEqual({});
      expect(run.removals).toEqual([]);
      expect(run.patches).toHaveLength(1);
    }
  });
});
