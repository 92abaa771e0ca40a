// BMO's BMCEventSubscriptionReconciler: a Redfish event subscription on the BMC of the named
// BareMetalHost, made once through Ironic (its Id kept in status), held by BMO's finalizer and
// removed from the BMC when the BMCEventSubscription is deleted. The spec is immutable (the
// webhook), so a subscription is never changed on the BMC, only made and removed.
import { bareMetalHostSchema } from '../../api/baremetalhost.ts';
import type { BareMetalHost } from '../../api/baremetalhost.ts';
import { bmcEventSubscriptionSchema } from '../../api/bmceventsubscription.ts';
import type { BMCEventSubscription } from '../../api/bmceventsubscription.ts';
import { BMCEVENTSUBSCRIPTION_FINALIZER } from '../../api/finalizers.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import { NeedsRegistrationError } from '../../provisioner/result.ts';
import type { EventRecorder } from '../../runtime/event-recorder.ts';
import { addFinalizer, hasFinalizer, removeFinalizer } from '../../runtime/finalizers.ts';
import type { Informer } from '../../runtime/informer.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { keyOf } from '../../runtime/kube-object.ts';
import type { ReconcileContext, Reconciler, Request, Result } from '../../runtime/reconciler.ts';
import { RecentWrites } from '../../runtime/recent-writes.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { patchStatus } from '../../runtime/status.ts';
import { safeParseCached } from '../../runtime/parse-cached.ts';
import { firmwareHostIdentity } from '../hostfirmwaresettings/index.ts';
import { readHttpHeaders } from './http-headers.ts';
import type { HeaderSecretReader } from './http-headers.ts';

/** BMO's 10 minutes for a missing host (its creation wakes the subscription sooner); ours for the rest. */
export const SUBSCRIPTION_DELAYS = { hostMissingMs: 10 * 60_000, retryMs: 60_000, registrationWaitMs: 30_000 } as const;

export interface BMCEventSubscriptionReconcilerOptions {
  subscriptions: { client: ResourceClient<KubeObject>; cache: Pick<Informer<KubeObject>, 'get'> & Partial<Pick<Informer<KubeObject>, 'addHandler' | 'getByKey'>> };
  hosts: Pick<Informer<KubeObject>, 'get'>;
  secrets: HeaderSecretReader;
  provisioner: Provisioner;
  events: EventRecorder;
}

type Step = Pick<ReconcileContext, 'log' | 'signal'>;

export class BMCEventSubscriptionReconciler implements Reconciler {
  readonly #options: BMCEventSubscriptionReconcilerOptions;
  /**
   * Our finalizer and status writes, until the cache shows them. The finalizer's watch event
   * brings the subscription back right after the pass that subscribed; a cache that does not
   * show the Id yet would have it subscribe on the BMC a second time.
   */
  readonly #recent: RecentWrites<KubeObject>;

  constructor(options: BMCEventSubscriptionReconcilerOptions) {
    this.#options = options;
    this.#recent = new RecentWrites({ cache: options.subscriptions.cache });
  }

  async reconcile(request: Request, { log, signal }: ReconcileContext): Promise<Result> {
    const parsed = bmcEventSubscriptionSchema.safeParse(this.#recent.freshest(keyOf(request), this.#options.subscriptions.cache.get(request)));
    if (!parsed.success) return {};
    let subscription = parsed.data;
    const hostName = subscription.spec.hostName ?? '';
    const parsedHost = safeParseCached(bareMetalHostSchema, this.#options.hosts.get({ namespace: request.namespace, name: hostName }));
    const host = parsedHost.success ? parsedHost.data : undefined;
    if (subscription.metadata.deletionTimestamp !== undefined) return this.#release(subscription, host, { log, signal });
    if (!host) {
      await this.#recordError(subscription, `baremetal host ${JSON.stringify(hostName)} not found`, { log, signal });
      return { requeueAfter: SUBSCRIPTION_DELAYS.hostMissingMs };
    }
    if (!hasFinalizer(subscription, BMCEVENTSUBSCRIPTION_FINALIZER)) {
      log.info('adding finalizer');
      // Carried on with the patched object: a pass of its own would read the cache before it shows the finalizer.
      const written = await addFinalizer(this.#options.subscriptions.client, subscription, BMCEVENTSUBSCRIPTION_FINALIZER, { signal });
      this.#recent.rememberWrite(subscription, written);
      subscription = bmcEventSubscriptionSchema.parse(written);
    }
    if (subscription.status?.subscriptionID) return {};
    return this.#create(subscription, host, { log, signal });
  }

  async #create(subscription: BMCEventSubscription, host: BareMetalHost, { log, signal }: Step): Promise<Result> {
    if (!host.status?.provisioning.ID) {
      log.info('waiting for the host to be registered before subscribing', { host: host.metadata.name });
      return { requeueAfter: SUBSCRIPTION_DELAYS.registrationWaitMs };
    }
    const headers = await readHttpHeaders(subscription, this.#options.secrets, { signal });
    if (!headers.ok) {
      await this.#recordError(subscription, headers.problem, { log, signal });
      return { requeueAfter: SUBSCRIPTION_DELAYS.retryMs };
    }
    let result;
    try {
      result = await this.#options.provisioner.addEventSubscription({
        host: firmwareHostIdentity(host),
        subscription: { destination: subscription.spec.destination ?? '', context: subscription.spec.context ?? '', httpHeaders: headers.headers },
      });
    } catch (error) {
      if (!(error instanceof NeedsRegistrationError)) throw error;
      log.info('waiting for the host to be registered before subscribing', { reason: error.message });
      return { requeueAfter: SUBSCRIPTION_DELAYS.registrationWaitMs };
    }
    if (result.kind === 'busy') return { requeueAfter: result.afterMs };
    if (result.kind === 'failed') {
      await this.#recordError(subscription, result.message, { log, signal });
      return { requeueAfter: SUBSCRIPTION_DELAYS.retryMs };
    }
    const { subscriptionId } = result.value;
    log.info('subscription created on the BMC', { subscriptionID: subscriptionId, destination: subscription.spec.destination });
    this.#recent.rememberWrite(subscription, await patchStatus(this.#options.subscriptions.client, subscription, { subscriptionID: subscriptionId, error: '' }, { signal }));
    this.#options.events.event(subscription, {
      type: 'Normal', reason: 'SubscriptionCreated', action: 'Subscribe',
      note: `subscription ${subscriptionId} created on the BMC of host ${host.metadata.name ?? ''}`,
    });
    return {};
  }

  /** Deleted: the subscription leaves the BMC, then the finalizer goes. A host that is gone took its node along: nothing left to ask. */
  async #release(subscription: BMCEventSubscription, host: BareMetalHost | undefined, { log, signal }: Step): Promise<Result> {
    if (!hasFinalizer(subscription, BMCEVENTSUBSCRIPTION_FINALIZER)) return {};
    const subscriptionId = subscription.status?.subscriptionID;
    if (subscriptionId && host) {
      let result;
      try {
        result = await this.#options.provisioner.removeEventSubscription({ host: firmwareHostIdentity(host), subscriptionId });
      } catch (error) {
        if (!(error instanceof NeedsRegistrationError)) throw error;
        result = { kind: 'done', value: undefined } as const;
      }
      if (result.kind === 'busy') return { requeueAfter: result.afterMs };
      if (result.kind === 'failed') {
        await this.#recordError(subscription, result.message, { log, signal });
        return { requeueAfter: SUBSCRIPTION_DELAYS.retryMs };
      }
      log.info('subscription removed from the BMC', { subscriptionID: subscriptionId });
    } else if (subscriptionId) {
      log.info('host is gone, so is its node: nothing to remove from the BMC through Ironic', { subscriptionID: subscriptionId });
    }
    log.info('cleanup is complete, removing finalizer');
    await removeFinalizer(this.#options.subscriptions.client, subscription, BMCEVENTSUBSCRIPTION_FINALIZER, { signal });
    return {};
  }

  /** status.error, a Warning event and the log, with the same words; messages never carry header values. */
  async #recordError(subscription: BMCEventSubscription, message: string, { log, signal }: Step): Promise<void> {
    log.info('subscription failed', { error: message });
    this.#options.events.event(subscription, { type: 'Warning', reason: 'BMCEventSubscriptionError', action: 'Subscribe', note: message });
    if (subscription.status?.error === message) return;
    this.#recent.rememberWrite(subscription, await patchStatus(this.#options.subscriptions.client, subscription, { error: message }, { signal }));
  }
}
