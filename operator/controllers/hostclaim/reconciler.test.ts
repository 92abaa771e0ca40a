import { describe, expect, it } from '@jest/globals';
import { HOSTCLAIM_FINALIZER } from '../../api/hostclaim.ts';
import { KubeStatusError } from '../../runtime/kube-errors.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { silentLogger } from '../../runtime/logger.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { HOSTCLAIM_DELAYS, HostClaimReconciler } from './reconciler.ts';

const CLAIM = { namespace: 'tenant', name: 'web-0' };
const claimRef = { apiVersion: 'metal3.io/v1alpha1', kind: 'HostClaim', name: 'web-0', namespace: 'tenant' };
const host = (name: string, options: { namespace?: string; state?: string; consumerRef?: unknown; labels?: Record<string, string> } = {}): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
  metadata: { namespace: options.namespace ?? 'infra', name, resourceVersion: `rv-${name}`, labels: options.labels ?? { role: 'web' } },
  spec: { online: false, ...(options.consumerRef ? { consumerRef: options.consumerRef } : {}) },
  status: { provisioning: { state: options.state ?? 'available' }, errorMessage: '' },
});
const claim = (options: { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: Record<string, unknown> } = {}): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'HostClaim',
  metadata: { ...CLAIM, uid: 'claim-uid', resourceVersion: '5', generation: 2, finalizers: [HOSTCLAIM_FINALIZER], ...options.metadata },
  spec: { poweredOn: true, hostSelector: { matchLabels: { role: 'web' } }, ...options.spec },
  ...(options.status ? { status: options.status } : {}),
});
const policy = (namespace: string, hostClaimNamespaces?: Record<string, unknown>): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'HostDeployPolicy', metadata: { namespace, name: 'tenants' }, spec: hostClaimNamespaces ? { hostClaimNamespaces } : {},
});
const conflict = new KubeStatusError({ kind: 'Status', status: 'Failure', reason: 'Conflict', code: 409, message: 'the object has been modified' });

interface SetUpOptions {
  claim: KubeObject;
  hosts?: KubeObject[];
  policies?: KubeObject[];
  namespaceLabels?: Record<string, string>;
  hostPatch?: Error;
  /** What the claims' informer shows (default: `claim`, always). */
  cachedClaim?: () => KubeObject;
  /** What the API server answers a claim patch with (default: `claim`). */
  writtenClaim?: (subresource: string | undefined) => KubeObject;
  /** What it answers a host patch with (default: a host named `patched`). */
  writtenHost?: (name: { namespace: string; name: string }) => KubeObject;
  random?: () => number;
}

function setUp(options: SetUpOptions) {
  const claimPatches: { patch: unknown; subresource?: string }[] = [];
  const hostPatches: { name: unknown; patch: unknown }[] = [];
  const namespaceReads: string[] = [];
  const events: string[] = [];
  const claims = {
    patch: async (_name: unknown, patch: unknown, patchOptions: { subresource?: string }) => {
      claimPatches.push({ patch, ...(patchOptions.subresource ? { subresource: patchOptions.subresource } : {}) });
      return options.writtenClaim?.(patchOptions.subresource) ?? options.claim;
    },
  } as unknown as ResourceClient<KubeObject>;
  const hostClient = {
    patch: async (name: { namespace: string; name: string }, patch: unknown) => {
      hostPatches.push({ name, patch });
      if (options.hostPatch) throw options.hostPatch;
      return options.writtenHost?.(name) ?? host('patched');
    },
  } as unknown as ResourceClient<KubeObject>;
  const hosts = options.hosts ?? [];
  const reconciler = new HostClaimReconciler({
    claims: { client: claims, cache: { get: () => options.cachedClaim?.() ?? options.claim } },
    hosts: {
      client: hostClient,
      cache: { get: (name) => hosts.find((h) => h.metadata.name === name.name && h.metadata.namespace === name.namespace), list: () => hosts },
    },
    policies: { list: (namespace?: string) => (options.policies ?? []).filter((p) => !namespace || p.metadata.namespace === namespace) },
    namespaceLabels: async (name) => { namespaceReads.push(name); return options.namespaceLabels ?? {}; },
    events: { event: (_object: KubeObject, event: { type: string; reason: string; note?: string }) => events.push(`${event.type} ${event.reason}: ${event.note ?? ''}`) } as never,
    random: options.random ?? (() => 0),
  });
  const reconcile = () => reconciler.reconcile(CLAIM, { log: silentLogger(), signal: new AbortController().signal, reconcileID: 'r', controller: 'hostclaim' });
  const statusOf = (index = -1) => (claimPatches.filter((p) => p.subresource === 'status').at(index)?.patch as { status: { conditions: { type: string; status: string; reason: string; message: string }[]; bareMetalHost?: unknown } }).status;
  return { claimPatches, hostPatches, namespaceReads, events, reconcile, statusOf };
}

describe('HostClaim controller', () => {
  it('adds BMO\'s finalizer first, then takes a host in the same pass (a pass of its own would read a cache without the finalizer)', async () => {
    const run = setUp({ claim: claim({ metadata: { finalizers: [] } }), hosts: [host('a')], policies: [policy('infra', { names: ['tenant'] })] });
    expect(await run.reconcile()).toEqual({});
    expect(JSON.stringify(run.claimPatches[0]?.patch)).toContain(HOSTCLAIM_FINALIZER);
    expect(run.hostPatches).toEqual([{ name: { namespace: 'infra', name: 'a' }, patch: { metadata: { resourceVersion: 'rv-a' }, spec: { consumerRef: claimRef } } }]);
    expect(run.statusOf().bareMetalHost).toEqual({ namespace: 'infra', name: 'a' });
  });

  it('takes one host, not a second, when the finalizer\'s event brings the claim back before the caches show what it took', async () => {
    const fresh = claim({ metadata: { finalizers: [], resourceVersion: '5' } });
    const finalized = claim({ metadata: { resourceVersion: '6' } });
    const associated = claim({ metadata: { resourceVersion: '7' }, status: { bareMetalHost: { namespace: 'infra', name: 'a' } } });
    let cachedClaim = fresh;
    const choices = [0, 0.99];
    const run = setUp({
      claim: fresh, hosts: [host('a'), host('b')], policies: [policy('infra', { names: ['tenant'] })],
      cachedClaim: () => cachedClaim,
      writtenClaim: (subresource) => (subresource === 'status' ? associated : finalized),
      writtenHost: (name) => ({ ...host(name.name, { consumerRef: claimRef }), metadata: { ...host(name.name).metadata, resourceVersion: `rv-${name.name}-2` } }),
      random: () => choices.shift() ?? 0,
    });
    expect(await run.reconcile()).toEqual({});
    // The watch has delivered the finalizer's write; neither the claim's status nor the host's consumerRef yet.
    cachedClaim = finalized;
    expect(await run.reconcile()).toEqual({});
    expect(run.hostPatches.map((patch) => patch.name)).toEqual([{ namespace: 'infra', name: 'a' }]);
  });

  it('keeps to the host it took when the status saying so was not written and the hosts\' cache does not show the take yet', async () => {
    let statusWrites = 0;
    const choices = [0, 0.99];
    const run = setUp({
      claim: claim(), hosts: [host('a'), host('b')], policies: [policy('infra', { names: ['tenant'] })],
      writtenClaim: () => {
        statusWrites += 1;
        if (statusWrites === 1) throw new Error('connection reset');
        return claim();
      },
      writtenHost: (name) => ({ ...host(name.name, { consumerRef: claimRef }), metadata: { ...host(name.name).metadata, resourceVersion: `rv-${name.name}-2` } }),
      random: () => choices.shift() ?? 0,
    });
    await expect(run.reconcile()).rejects.toThrow('connection reset');
    expect(await run.reconcile()).toEqual({});
    expect(run.hostPatches.map((patch) => patch.name)).toEqual([{ namespace: 'infra', name: 'a' }]);
    expect(run.statusOf().bareMetalHost).toEqual({ namespace: 'infra', name: 'a' });
  });

  it('takes a matching available host of a namespace whose policy accepts the claim\'s, guarded by its resourceVersion, and says so in status', async () => {
    const run = setUp({
      claim: claim(),
      hosts: [host('busy', { consumerRef: { kind: 'Metal3Machine', name: 'm' } }), host('other', { labels: { role: 'db' } }), host('free'), host('closed', { namespace: 'private' })],
      policies: [policy('infra', { names: ['tenant'] })],
    });
    expect(await run.reconcile()).toEqual({});
    expect(run.hostPatches).toEqual([{ name: { namespace: 'infra', name: 'free' }, patch: { metadata: { resourceVersion: 'rv-free' }, spec: { consumerRef: claimRef } } }]);
    const status = run.statusOf();
    expect(status.bareMetalHost).toEqual({ namespace: 'infra', name: 'free' });
    expect(status.conditions.map(({ type, status: value, reason, message }) => ({ type, value, reason, message }))).toEqual([
      { type: 'Associated', value: 'True', reason: 'BareMetalHostAssociated', message: '' },
      { type: 'Ready', value: 'Unknown', reason: 'UnknownReported', message: '* Synchronized: Condition not yet reported\n* Provisioned: Condition not yet reported' },
    ]);
    expect(run.namespaceReads).toEqual([]);
  });

  it('prefers the claim\'s failure domain and keeps to inNamespace', async () => {
    const run = setUp({
      claim: claim({ spec: { failureDomain: 'rack-2', hostSelector: { matchLabels: { role: 'web' }, inNamespace: 'infra' } } }),
      hosts: [host('a'), host('b', { labels: { role: 'web', 'infrastructure.cluster.x-k8s.io/failure-domain': 'rack-2' } }), host('c', { namespace: 'infra-2' })],
      policies: [policy('infra', { nameMatches: '^ten' }), policy('infra-2', { names: ['tenant'] })],
    });
    await run.reconcile();
    expect(run.hostPatches.map((p) => p.name)).toEqual([{ namespace: 'infra', name: 'b' }]);
  });

  it('reads the claim\'s Namespace only for a policy asking about labels, and follows them', async () => {
    const policies = [policy('infra', { hasLabels: [{ name: 'tier', value: 'gold' }] })];
    const refused = setUp({ claim: claim(), hosts: [host('a')], policies, namespaceLabels: { tier: 'silver' } });
    expect(await refused.reconcile()).toEqual({ requeueAfter: HOSTCLAIM_DELAYS.noHostMs });
    expect(refused.namespaceReads).toEqual(['tenant']);
    expect(refused.statusOf().conditions[0]).toMatchObject({
      type: 'Associated', status: 'False', reason: 'NoBareMetalHost', message: 'No available host found: no HostDeployPolicy lets HostClaims of namespace tenant claim hosts: requeuing.',
    });
    const accepted = setUp({ claim: claim(), hosts: [host('a')], policies, namespaceLabels: { tier: 'gold' } });
    await accepted.reconcile();
    expect(accepted.hostPatches).toHaveLength(1);
  });

  it('waits, saying why, when no host is free, and looks again after BMO\'s 30 s', async () => {
    const run = setUp({ claim: claim(), hosts: [host('a', { state: 'provisioning' }), host('b', { consumerRef: claimRef })], policies: [policy('infra', { names: ['elsewhere'] }), policy('infra', { names: ['tenant'] })] });
    // b is held by this claim already: a claim whose status write was lost finds its host again.
    await run.reconcile();
    expect(run.hostPatches).toEqual([]);
    expect(run.statusOf().bareMetalHost).toEqual({ namespace: 'infra', name: 'b' });

    const none = setUp({ claim: claim(), hosts: [host('a', { state: 'provisioning' }), host('c', { consumerRef: { kind: 'HostClaim', name: 'x', namespace: 'y', apiVersion: 'metal3.io/v1alpha1' } })], policies: [policy('infra', { names: ['tenant'] })] });
    expect(await none.reconcile()).toEqual({ requeueAfter: HOSTCLAIM_DELAYS.noHostMs });
    expect(none.statusOf().conditions[0]?.message)
      .toBe('No available host found: 2 BareMetalHosts in infra match the hostSelector (role=web) but 1 not available (provisioning), 1 consumed: requeuing.');
  });

  it('chooses again soon when another claim took the host first', async () => {
    const run = setUp({ claim: claim(), hosts: [host('a')], policies: [policy('infra', { names: ['tenant'] })], hostPatch: conflict });
    const result = await run.reconcile();
    expect(result.requeueAfter).toBeGreaterThanOrEqual(HOSTCLAIM_DELAYS.conflictMs);
    expect(result.requeueAfter).toBeLessThanOrEqual(HOSTCLAIM_DELAYS.conflictMs * (1 + HOSTCLAIM_DELAYS.conflictJitter));
    expect(run.claimPatches).toEqual([]);
  });

  it('refuses an unusable selector or policy in the condition, an event and no endless retry', async () => {
    const selector = setUp({ claim: claim({ spec: { hostSelector: { matchExpressions: [{ key: 'role', operator: 'near', values: ['web'] }] } } }), hosts: [host('a')], policies: [policy('infra', { names: ['tenant'] })] });
    expect(await selector.reconcile()).toEqual({});
    expect(selector.events).toEqual(['Warning NoBareMetalHost: Failed to pick a BaremetalHost for the Host: role: unknown operator "near" (use in, notin, exists, !, =, ==, !=, gt or lt)']);
    const regex = setUp({ claim: claim(), hosts: [host('a')], policies: [policy('infra', { nameMatches: '(' })] });
    expect(await regex.reconcile()).toEqual({ requeueAfter: HOSTCLAIM_DELAYS.noHostMs });
    expect(regex.statusOf().conditions[0]?.message).toMatch(/^Failed to pick a BaremetalHost for the Host: HostDeployPolicy infra\/tenants: nameMatches "\(" is not a regular expression/);
  });

  it('on deletion gives the host back, then lets the claim go', async () => {
    const held = host('a', { consumerRef: claimRef });
    const run = setUp({ claim: claim({ metadata: { deletionTimestamp: '2026-12-05T10:00:00Z' }, status: { bareMetalHost: { namespace: 'infra', name: 'a' } } }), hosts: [held] });
    expect(await run.reconcile()).toEqual({});
    expect(run.hostPatches).toEqual([{ name: { namespace: 'infra', name: 'a' }, patch: { metadata: { resourceVersion: 'rv-a' }, spec: { consumerRef: null } } }]);
    expect(JSON.stringify(run.claimPatches.at(-1)?.patch)).toContain('remove');

    const taken = setUp({ claim: claim({ metadata: { deletionTimestamp: '2026-12-05T10:00:00Z' }, status: { bareMetalHost: { namespace: 'infra', name: 'a' } } }), hosts: [host('a', { consumerRef: { kind: 'Metal3Machine', name: 'm' } })] });
    await taken.reconcile();
    expect(taken.hostPatches).toEqual([]);
  });

  it('writes nothing on a pass that changes nothing', async () => {
    const associated = [
      { type: 'Associated', status: 'True', reason: 'BareMetalHostAssociated', message: '', lastTransitionTime: '2026-12-05T10:00:00Z', observedGeneration: 2 },
      { type: 'Ready', status: 'Unknown', reason: 'UnknownReported', message: '* Synchronized: Condition not yet reported\n* Provisioned: Condition not yet reported', lastTransitionTime: '2026-12-05T10:00:00Z', observedGeneration: 2 },
    ];
    const run = setUp({ claim: claim({ status: { bareMetalHost: { namespace: 'infra', name: 'a' }, conditions: associated } }), hosts: [host('a', { consumerRef: claimRef })] });
    expect(await run.reconcile()).toEqual({});
    expect(run.claimPatches).toEqual([]);
  });
});
