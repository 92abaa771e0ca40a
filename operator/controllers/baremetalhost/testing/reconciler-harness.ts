import { Registry } from 'prom-client';
import type { BareMetalHostInput } from '../../../api/baremetalhost.ts';
import { SECRET_FINALIZER } from '../../../api/finalizers.ts';
import type { HardwareData } from '../../../api/hardwaredata.ts';
import type { Provisioner } from '../../../provisioner/provisioner.ts';
import type { EventInput, EventRecorder } from '../../../runtime/event-recorder.ts';
import { keyOf } from '../../../runtime/kube-object.ts';
import type { KubeObject, ObjectName } from '../../../runtime/kube-object.ts';
import { silentLogger } from '../../../runtime/logger.ts';
import { OwnWrites } from '../../../runtime/own-writes.ts';
import type { ReconcileContext, Result } from '../../../runtime/reconciler.ts';
import type { PatchOptions, ResourceClient } from '../../../runtime/resource-client.ts';
import type { HardwareDataAccess } from '../hardware-data-store.ts';
import { createHostMetrics } from '../metrics.ts';
import { BareMetalHostReconciler } from '../reconciler.ts';
import type { ClaimedSecretAccess, SecretObject } from '../../../secrets/index.ts';
import { TEST_NOW } from './hosts.ts';
import type { PollBounds } from '../poll-schedule.ts';

export interface RecordedPatch {
  body: unknown;
  options: PatchOptions;
}

function mergeLabels(current: Record<string, string> | undefined, patch: Record<string, string | null> | undefined): Record<string, string> | undefined {
  if (!patch) return current;
  const merged: Record<string, string> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** A BMC Secret as the API returns it. */
export function bmcSecret(data: Record<string, string> = { username: 'admin', password: 'secret' }): SecretObject {
  return {
    metadata: { name: 'bmc-secret', namespace: 'test', resourceVersion: '10' },
    data: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, base64(value)])),
  };
}

/**
 * The reconciler with recording stand-ins for its Kubernetes collaborators. Nothing here
 * imitates API server behaviour: writes are only recorded (each returns the object with a
 * new resourceVersion), so tests check what the reconciler asked for. Behaviour that needs
 * the API server's semantics is covered by test/integration/baremetalhost.
 */
export class ReconcilerHarness {
  readonly registry = new Registry();
  readonly patches: RecordedPatch[] = [];
  readonly events: EventInput[] = [];
  readonly claims: Array<{ name: string; finalizer: boolean; owner?: string }> = [];
  /** When set, claiming a Secret fails with it (e.g. a 409 from another host's claim). */
  claimError: unknown;
  readonly releasedSecrets: string[] = [];
  /** Secrets the host no longer uses that it let go of (letGo), in order. */
  readonly secretsLetGo: Array<{ secret: string; ownerUid: string; keepFinalizer: boolean }> = [];
  readonly releasedHardwareData: string[] = [];
  readonly replacedHardwareData: string[] = [];
  readonly secrets = new Map<string, SecretObject>();
  hardwareData: HardwareData | undefined;
  host: KubeObject | undefined;
  /** Other hosts the cache holds besides `host` (the same namespace unless they say otherwise). */
  otherHosts: KubeObject[] = [];
  /** Thrown by every spec patch, when set (e.g. a conflict). */
  specPatchError: Error | undefined;
  readonly reconciler: BareMetalHostReconciler;
  /** The filter the controller puts before its host predicates. */
  readonly ownWrites = new OwnWrites({ cache: { getByKey: () => undefined }, redeliver: () => {} });
  #version = 100;
  #labels: Record<string, string> | undefined;

  /** The reconciler's clock (TEST_NOW unless a test moves it). */
  nowMs = TEST_NOW.getTime();

  constructor(options: { provisioner: Provisioner; host?: BareMetalHostInput; hardwareLabels?: boolean; pollBounds?: PollBounds; nodeListWatching?: () => boolean }) {
    this.host = options.host as KubeObject | undefined;
    const client = {
      resource: { group: 'metal3.io', version: 'v1alpha1', kind: 'BareMetalHost', plural: 'baremetalhosts', namespaced: true },
      patch: async (_name: ObjectName, body: unknown, patchOptions: PatchOptions) => {
        if (this.specPatchError !== undefined && (body as { spec?: unknown }).spec !== undefined) throw this.specPatchError;
        this.patches.push({ body, options: patchOptions });
        const current = this.host ?? { metadata: {} };
        // Label patches stay applied in later answers, so a needless second write would show.
        this.#labels = mergeLabels(this.#labels ?? current.metadata.labels, (body as { metadata?: { labels?: Record<string, string | null> } }).metadata?.labels);
        const labels = this.#labels;
        // A spec change bumps the generation, as the API server does.
        const spec = (body as { spec?: Record<string, unknown> }).spec;
        const generation = spec ? { generation: (current.metadata.generation ?? 0) + 1 } : {};
        return {
          ...current,
          ...(spec ? { spec: { ...(current as { spec?: object }).spec, ...spec } } : {}),
          metadata: { ...current.metadata, ...(labels ? { labels } : {}), ...generation, resourceVersion: String(++this.#version) },
        };
      },
    } as unknown as ResourceClient<KubeObject>;
    const secrets: ClaimedSecretAccess = {
      claim: async (name, claim) => {
        const secret = this.secrets.get(keyOf(name));
        if (!secret) return undefined;
        if (this.claimError !== undefined) throw this.claimError;
        this.claims.push({ name: secret.metadata.name ?? '', finalizer: claim.finalizer, ...(claim.owner ? { owner: claim.owner.name } : {}) });
        return secret;
      },
      release: async (name) => {
        this.releasedSecrets.push(keyOf(name));
      },
      heldBy: (namespace, ownerUid) => [...this.secrets.values()]
        .filter((secret) => secret.metadata.namespace === namespace && secret.metadata.finalizers?.includes(SECRET_FINALIZER)
          && secret.metadata.ownerReferences?.some((ref) => ref.uid === ownerUid))
        .map((secret) => secret.metadata.name ?? ''),
      letGo: async (name, letGo) => {
        this.secretsLetGo.push({ secret: keyOf(name), ownerUid: letGo.ownerUid, keepFinalizer: letGo.keepFinalizer });
      },
    };
    const hardwareData: HardwareDataAccess = {
      get: () => this.hardwareData,
      holds: () => this.hardwareData !== undefined,
      replace: async (owner) => {
        this.replacedHardwareData.push(`${owner.namespace}/${owner.name}`);
      },
      release: async (name) => {
        this.releasedHardwareData.push(keyOf(name));
      },
    };
    const events: EventRecorder = {
      event: (_regarding, input) => {
        this.events.push(input);
      },
      flush: async () => {},
    };
    this.reconciler = new BareMetalHostReconciler({
      hosts: { client, cache: { get: () => this.host, list: (namespace?: string) => [...(this.host ? [this.host] : []), ...this.otherHosts]
        .filter((candidate) => namespace === undefined || candidate.metadata.namespace === namespace) }, ownWrites: this.ownWrites },
      secrets,
      hardwareData,
      provisioner: options.provisioner,
      events,
      metrics: createHostMetrics(this.registry, { hosts: () => [] }),
      settings: { maxProvisioningRetries: 5, deletionTimeoutMs: 60 * 60_000 },
      provisioningLimit: 20,
      hardwareLabels: options.hardwareLabels ?? false,
      ...(options.pollBounds ? { pollBounds: options.pollBounds } : {}),
      ...(options.nodeListWatching ? { nodeListWatching: options.nodeListWatching } : {}),
      clock: { now: () => this.nowMs, setTimer: () => ({ cancel() {} }) },
      random: () => 0,
    });
  }

  reconcile(): Promise<Result> {
    const context: ReconcileContext = { signal: new AbortController().signal, log: silentLogger(), reconcileID: 'test', controller: 'baremetalhost' };
    return this.reconciler.reconcile({ namespace: 'test', name: 'host-0' }, context);
  }

  /** The metadata.labels of each metadata (non-status) patch that carried labels. */
  labelPatches(): Array<Record<string, string | null>> {
    return this.patches
      .filter((p) => p.options.subresource === undefined)
      .map((p) => (p.body as { metadata?: { labels?: Record<string, string | null> } }).metadata?.labels)
      .filter((labels): labels is Record<string, string | null> => labels !== undefined);
  }

  statusPatches(): Array<Record<string, unknown>> {
    return this.patches.filter((p) => p.options.subresource === 'status').map((p) => (p.body as { status: Record<string, unknown> }).status);
  }

  reasons(): string[] {
    return this.events.map((event) => event.reason);
  }

  async metric(name: string): Promise<string> {
    return (await this.registry.getSingleMetricAsString(name)) ?? '';
  }
}
