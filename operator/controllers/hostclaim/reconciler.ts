// BMO's HostClaimReconciler (--hostclaims): a HostClaim takes one BareMetalHost, possibly of
// another namespace that a HostDeployPolicy opens to the claim's, by setting the host's
// consumerRef to the claim; deleting the claim gives the host back. As in BMO, nothing else of
// the claim reaches the host yet (its image, data and power stay the host's own).
import { bareMetalHostSchema } from '../../api/baremetalhost.ts';
import type { BareMetalHost } from '../../api/baremetalhost.ts';
import { HOSTCLAIM_CONDITIONS, HOSTCLAIM_FINALIZER, HOSTCLAIM_REASONS, HostClaimResource, hostClaimSchema } from '../../api/hostclaim.ts';
import type { HostClaim } from '../../api/hostclaim.ts';
import { hostDeployPolicySchema } from '../../api/hostdeploypolicy.ts';
import { summaryCondition } from '../../runtime/condition-summary.ts';
import { setCondition } from '../../runtime/conditions.ts';
import type { Condition, ConditionInput } from '../../runtime/conditions.ts';
import type { EventRecorder } from '../../runtime/event-recorder.ts';
import { addFinalizer, hasFinalizer, removeFinalizer } from '../../runtime/finalizers.ts';
import type { Informer } from '../../runtime/informer.ts';
import { isConflict, isNotFound } from '../../runtime/kube-errors.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { keyOf, objectKey, objectName } from '../../runtime/kube-object.ts';
import { LabelSelectorError, compileLabelSelector } from '../../runtime/label-selector.ts';
import { safeParseCached } from '../../runtime/parse-cached.ts';
import type { ReconcileContext, Reconciler, Request, Result } from '../../runtime/reconciler.ts';
import { RecentWrites } from '../../runtime/recent-writes.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { patchStatus } from '../../runtime/status.ts';
import { chooseHostForClaim, describeNoHost, heldBy } from './host-choice.ts';
import { PolicyError, acceptableNamespaces } from './namespace-policy.ts';

/** BMO's delays: 30 s before looking for a free host again; 0.1–1 s after losing a race for one. */
export const HOSTCLAIM_DELAYS = { noHostMs: 30_000, conflictMs: 100, conflictJitter: 9 } as const;

export interface HostClaimReconcilerOptions {
  claims: { client: ResourceClient<KubeObject>; cache: Pick<Informer<KubeObject>, 'get'> & Partial<Pick<Informer<KubeObject>, 'addHandler' | 'getByKey'>> };
  hosts: { client: ResourceClient<KubeObject>; cache: Pick<Informer<KubeObject>, 'get' | 'list'> & Partial<Pick<Informer<KubeObject>, 'addHandler' | 'getByKey'>> };
  policies: Pick<Informer<KubeObject>, 'list'>;
  /** The claim's Namespace, for the labels policies ask about (read when choosing, not cached). */
  namespaceLabels(name: string, signal: AbortSignal): Promise<Record<string, string>>;
  events: EventRecorder;
  random?: () => number;
}

type Step = Pick<ReconcileContext, 'log' | 'signal'>;
const SUMMARIZED = [HOSTCLAIM_CONDITIONS.associated, HOSTCLAIM_CONDITIONS.synchronized, HOSTCLAIM_CONDITIONS.provisioned];

export class HostClaimReconciler implements Reconciler {
  readonly #options: HostClaimReconcilerOptions;
  /**
   * Our writes of claims and hosts, until the caches show them. The finalizer's watch event
   * brings a claim back as soon as the pass that took a host ends; caches that show neither
   * the claim's host nor the host's consumerRef yet would have it take a second host.
   */
  readonly #recentClaims: RecentWrites<KubeObject>;
  readonly #recentHosts: RecentWrites<KubeObject>;

  constructor(options: HostClaimReconcilerOptions) {
    this.#options = options;
    this.#recentClaims = new RecentWrites({ cache: options.claims.cache });
    this.#recentHosts = new RecentWrites({ cache: options.hosts.cache });
  }

  async reconcile(request: Request, { log, signal }: ReconcileContext): Promise<Result> {
    const parsed = safeParseCached(hostClaimSchema, this.#recentClaims.freshest(keyOf(request), this.#options.claims.cache.get(request)));
    if (!parsed.success) return {};
    let claim = parsed.data;
    if (claim.metadata.deletionTimestamp !== undefined) return this.#release(claim, { log, signal });
    // Carried on with the patched claim, as BMO's pass does: a pass of its own would read the cache before it shows the finalizer.
    if (!hasFinalizer(claim, HOSTCLAIM_FINALIZER)) {
      const written = await addFinalizer(this.#options.claims.client, claim, HOSTCLAIM_FINALIZER, { signal });
      this.#recentClaims.rememberWrite(claim, written);
      claim = hostClaimSchema.parse(written);
    }
    if (claim.status?.bareMetalHost) {
      await this.#writeStatus(claim, { associated: { type: HOSTCLAIM_CONDITIONS.associated, status: 'True', reason: HOSTCLAIM_REASONS.associated } }, { signal });
      return {};
    }
    return this.#associate(claim, { log, signal });
  }

  async #associate(claim: HostClaim, { log, signal }: Step): Promise<Result> {
    const namespace = claim.metadata.namespace ?? '';
    const hostSelector = claim.spec.hostSelector;
    let selector;
    let namespaces;
    try {
      selector = compileLabelSelector(hostSelector);
      const policies = this.#options.policies.list(hostSelector?.inNamespace || undefined).flatMap((object) => {
        const policy = safeParseCached(hostDeployPolicySchema, object);
        return policy.success ? [policy.data] : [];
      });
      // Read only when a policy asks about labels: a namespace-scoped install may not read Namespaces.
      const labels = policies.some((policy) => policy.spec.hostClaimNamespaces?.hasLabels?.length) ? await this.#namespaceLabels(namespace, signal) : {};
      namespaces = acceptableNamespaces(policies, { name: namespace, labels }, hostSelector?.inNamespace || undefined);
    } catch (error) {
      if (!(error instanceof LabelSelectorError) && !(error instanceof PolicyError)) throw error;
      const message = `Failed to pick a BaremetalHost for the Host: ${error.message}`;
      log.info('cannot choose a host', { reason: message });
      this.#options.events.event(claim, { type: 'Warning', reason: HOSTCLAIM_REASONS.noHost, action: 'Associate', note: message });
      await this.#writeStatus(claim, { associated: { type: HOSTCLAIM_CONDITIONS.associated, status: 'False', reason: HOSTCLAIM_REASONS.noHost, message } }, { signal });
      // A fixed selector is a spec change, which wakes the claim; a fixed policy is found on the next look.
      return error instanceof PolicyError ? { requeueAfter: HOSTCLAIM_DELAYS.noHostMs } : {};
    }
    if (namespaces.size === 0) {
      const message = `No available host found: no HostDeployPolicy${hostSelector?.inNamespace ? ` in ${hostSelector.inNamespace}` : ''} lets HostClaims of namespace ${namespace} claim hosts: requeuing.`;
      return this.#waitForHost(claim, message, { log, signal });
    }
    const hosts = this.#options.hosts.cache.list().flatMap((cached) => {
      const host = safeParseCached(bareMetalHostSchema, this.#recentHosts.freshest(objectKey(cached), cached));
      return host.success ? [host.data] : [];
    });
    const identity = { namespace, name: claim.metadata.name ?? '', failureDomain: claim.spec.failureDomain };
    const choice = chooseHostForClaim(hosts, { claim: identity, selector, namespaces, ...(this.#options.random ? { random: this.#options.random } : {}) });
    if (choice.kind === 'none') return this.#waitForHost(claim, describeNoHost(choice, { selector, namespaces }), { log, signal });
    if (choice.kind === 'chosen') {
      const lost = await this.#take(choice.host, identity, signal);
      if (lost) {
        log.info('lost the race for a host; choosing again', { host: objectName(choice.host), reason: lost });
        return { requeueAfter: HOSTCLAIM_DELAYS.conflictMs * (1 + Math.random() * HOSTCLAIM_DELAYS.conflictJitter) };
      }
    }
    const host = { namespace: choice.host.metadata.namespace ?? '', name: choice.host.metadata.name ?? '' };
    log.info('associated the HostClaim with a BareMetalHost', { bmh: host.name, bmhNamespace: host.namespace });
    await this.#writeStatus(claim, {
      associated: { type: HOSTCLAIM_CONDITIONS.associated, status: 'True', reason: HOSTCLAIM_REASONS.associated },
      bareMetalHost: host,
    }, { signal });
    return {};
  }

  async #namespaceLabels(namespace: string, signal: AbortSignal): Promise<Record<string, string>> {
    try {
      return await this.#options.namespaceLabels(namespace, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new PolicyError(`cannot read Namespace ${namespace} for the labels a HostDeployPolicy asks about: ${(error as Error).message}`);
    }
  }

  /** The host's consumerRef, written only if the host is as it was read: of two claims racing for it, one wins. */
  async #take(host: BareMetalHost, claim: { namespace: string; name: string }, signal: AbortSignal): Promise<string | undefined> {
    const consumerRef = { apiVersion: `${HostClaimResource.group}/${HostClaimResource.version}`, kind: HostClaimResource.kind, name: claim.name, namespace: claim.namespace };
    try {
      const written = await this.#options.hosts.client.patch(objectName(host), { metadata: { resourceVersion: host.metadata.resourceVersion }, spec: { consumerRef } }, { type: 'merge', signal });
      this.#recentHosts.rememberWrite(host, written);
      return undefined;
    } catch (error) {
      if (isConflict(error)) return 'the host changed while being claimed';
      if (isNotFound(error)) return 'the host was deleted while being claimed';
      throw error;
    }
  }

  async #waitForHost(claim: HostClaim, message: string, { log, signal }: Step): Promise<Result> {
    log.info('no available host found; requeuing', { reason: message });
    await this.#writeStatus(claim, { associated: { type: HOSTCLAIM_CONDITIONS.associated, status: 'False', reason: HOSTCLAIM_REASONS.noHost, message } }, { signal });
    return { requeueAfter: HOSTCLAIM_DELAYS.noHostMs };
  }

  /** Deleted: the host it holds is given back (its consumerRef cleared), then the finalizer goes. */
  async #release(claim: HostClaim, { log, signal }: Step): Promise<Result> {
    if (!hasFinalizer(claim, HOSTCLAIM_FINALIZER)) return {};
    const ref = claim.status?.bareMetalHost;
    const parsedHost = ref ? safeParseCached(bareMetalHostSchema, this.#recentHosts.freshest(keyOf(ref), this.#options.hosts.cache.get(ref))) : undefined;
    const host = parsedHost?.success ? parsedHost.data : undefined;
    const identity = { namespace: claim.metadata.namespace ?? '', name: claim.metadata.name ?? '' };
    if (host && heldBy(host, identity)) {
      try {
        const written = await this.#options.hosts.client.patch(objectName(host), { metadata: { resourceVersion: host.metadata.resourceVersion }, spec: { consumerRef: null } }, { type: 'merge', signal });
        this.#recentHosts.rememberWrite(host, written);
      } catch (error) {
        if (isConflict(error)) return { requeueAfter: HOSTCLAIM_DELAYS.conflictMs * (1 + Math.random() * HOSTCLAIM_DELAYS.conflictJitter) };
        if (!isNotFound(error)) {
          const message = (error as Error).message;
          await this.#writeStatus(claim, { associated: { type: HOSTCLAIM_CONDITIONS.associated, status: 'False', reason: HOSTCLAIM_REASONS.deletionFailed, message } }, { signal });
          throw error;
        }
      }
      log.info('released the BareMetalHost', { bmh: host.metadata.name, bmhNamespace: host.metadata.namespace });
    }
    await removeFinalizer(this.#options.claims.client, claim, HOSTCLAIM_FINALIZER, { signal });
    return {};
  }

  /** The Associated condition, BMO's Ready summary of it, Synchronized and Provisioned, and the host; written only when they change. */
  async #writeStatus(claim: HostClaim, change: { associated: ConditionInput; bareMetalHost?: { namespace: string; name: string } }, { signal }: Pick<Step, 'signal'>): Promise<void> {
    const generation = claim.metadata.generation;
    const stamp = (input: ConditionInput): ConditionInput => (generation === undefined ? input : { ...input, observedGeneration: generation });
    const before = (claim.status?.conditions ?? []) as Condition[];
    let conditions = setCondition(before, stamp(change.associated));
    conditions = setCondition(conditions, stamp(summaryCondition(conditions, { type: HOSTCLAIM_CONDITIONS.ready, of: SUMMARIZED })));
    if (conditions === before && change.bareMetalHost === undefined) return;
    this.#recentClaims.rememberWrite(claim, await patchStatus(this.#options.claims.client, claim, { conditions, ...(change.bareMetalHost ? { bareMetalHost: change.bareMetalHost } : {}) }, { signal }));
  }
}
