import type { BareMetalHost } from '../../../operator/api/index.ts';
import type {
  EventRecorder, Informer, KubeObject, ReconcileContext, Reconciler, Request, ResourceClient, Result,
} from '../../../operator/runtime/index.ts';
import { addFinalizer, deepEqual, isNotFound, objectName, patchStatus, removeFinalizer } from '../../../operator/runtime/index.ts';
import {
  CLUSTER_NAME_LABEL, CLUSTER_PAUSED_ANNOTATION, HOST_ANNOTATION, INFRASTRUCTURE_GROUP, META_DATA_SECRET_SUFFIX, METAL3_DATA_CLAIM_FINALIZER,
  METAL3_DATA_FINALIZER, NETWORK_DATA_SECRET_SUFFIX, metal3DataSchema, metal3DataTemplateSchema, metal3MachineSchema,
} from '../../api/index.ts';
import type { Cluster, Machine, Metal3Data, Metal3DataClaim, Metal3DataTemplate, Metal3Machine } from '../../api/index.ts';
import { DataRenderError, referencedPools, renderMetaData, renderNetworkData } from '../../data/index.ts';
import { clusterOf, isPaused } from '../metal3cluster/cluster-links.ts';
import { ownerMachine } from '../metal3machine/owner-machine.ts';
import type { AddressClients } from './pool-addresses.ts';
import { addressesFromPools, releaseAddresses } from './pool-addresses.ts';
import { META_DATA_KEY, NETWORK_DATA_KEY, createRenderedSecret, deleteRenderedSecrets, secretExists } from './rendered-secrets.ts';

export interface DataDeps {
  datas: { client: ResourceClient<Metal3Data>; cache: Informer<Metal3Data> };
  /** Whose pause (clusterctl move) holds the data still, creation and deletion alike, as CAPM3. */
  clusters: Informer<Cluster>;
  templates: Informer<Metal3DataTemplate>;
  claims: Informer<Metal3DataClaim>;
  metal3Machines: Informer<Metal3Machine>;
  machines: Informer<Machine>;
  /** Read live: the host's NICs and name must be current when the data is rendered. */
  hosts: ResourceClient<BareMetalHost>;
  secrets: ResourceClient<KubeObject>;
  addresses: AddressClients;
  events: EventRecorder;
  settings: {
    requeueAfterMs: number;
    /** CAPM3's --enable-bmh-name-based-preallocation: new IPClaims take the host's name. */
    bmhNameBasedPreallocation: boolean;
  };
}

type Outcome = { kind: 'ready' } | { kind: 'waiting'; why: string } | { kind: 'failed'; why: string };

/**
 * CAPM3's Metal3Data reconciler: claims an address from every pool the template names, renders
 * the `<m3m>-metadata` and `<m3m>-networkdata` Secrets once, and reports ready. On deletion it
 * releases the address claims and its Secrets, then lets go.
 */
export class Metal3DataReconciler implements Reconciler {
  readonly #deps: DataDeps;

  constructor(deps: DataDeps) {
    this.#deps = deps;
  }

  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    const cached = this.#deps.datas.cache.get(request);
    if (!cached) return {};
    let data = metal3DataSchema.parse(cached);
    if (data.metadata.annotations?.[CLUSTER_PAUSED_ANNOTATION] !== undefined) return {};
    if (isPaused(clusterOf(data, this.#deps.clusters), data)) {
      // Not watched: looked at again until the Cluster is unpaused.
      context.log.info('reconciliation is paused for this object: its Cluster is paused');
      return { requeueAfter: this.#deps.settings.requeueAfterMs };
    }
    if (data.metadata.deletionTimestamp) return this.#delete(data, context);

    data = metal3DataSchema.parse(await addFinalizer(this.#deps.datas.client, data, METAL3_DATA_FINALIZER, { signal: context.signal }));
    let outcome: Outcome;
    try {
      outcome = await this.#render(data, context);
    } catch (error) {
      if (!(error instanceof DataRenderError)) throw error;
      outcome = { kind: 'failed', why: error.message };
    }
    await this.#report(data, outcome, context);
    return outcome.kind === 'ready' ? {} : { requeueAfter: this.#deps.settings.requeueAfterMs };
  }

  async #render(current: Metal3Data, context: ReconcileContext): Promise<Outcome> {
    const deps = this.#deps;
    const { signal } = context;
    const namespace = current.metadata.namespace ?? '';
    const templateName = current.spec.template?.name;
    const cachedTemplate = templateName ? deps.templates.get({ namespace: current.spec.template?.namespace ?? namespace, name: templateName }) : undefined;
    if (!cachedTemplate) return { kind: 'waiting', why: `Metal3DataTemplate ${templateName ?? '(none)'} does not exist` };
    const template = metal3DataTemplateSchema.parse(cachedTemplate);
    const m3mRef = current.metadata.ownerReferences?.find((owner) => owner.kind === 'Metal3Machine' && owner.apiVersion.startsWith(`${INFRASTRUCTURE_GROUP}/`));
    const cachedM3m = m3mRef ? deps.metal3Machines.get({ namespace, name: m3mRef.name }) : undefined;
    if (!cachedM3m) return { kind: 'waiting', why: `the Metal3Machine ${m3mRef?.name ?? '(no owner reference)'} does not exist` };
    const m3m = metal3MachineSchema.parse(cachedM3m);

    // The Secret names are fixed first (CAPM3 writes them into the spec), so deletion finds them.
    const names = {
      metaData: template.spec.metaData ? current.spec.metaData?.name || `${m3m.metadata.name}${META_DATA_SECRET_SUFFIX}` : undefined,
      networkData: template.spec.networkData ? current.spec.networkData?.name || `${m3m.metadata.name}${NETWORK_DATA_SECRET_SUFFIX}` : undefined,
    };
    const spec = {
      ...(names.metaData ? { metaData: { name: names.metaData, namespace } } : {}),
      ...(names.networkData ? { networkData: { name: names.networkData, namespace } } : {}),
    };
    let data = current;
    if (!deepEqual({ metaData: current.spec.metaData, networkData: current.spec.networkData }, { metaData: spec.metaData, networkData: spec.networkData })) {
      data = metal3DataSchema.parse(await deps.datas.client.patch(objectName(current), { spec }, { type: 'merge', signal }));
    }
    const missing = {
      metaData: names.metaData !== undefined && !(await secretExists(deps.secrets, { namespace, name: names.metaData }, signal)),
      networkData: names.networkData !== undefined && !(await secretExists(deps.secrets, { namespace, name: names.networkData }, signal)),
    };
    if (!missing.metaData && !missing.networkData) return { kind: 'ready' };

    const machine = ownerMachine(m3m, deps.machines);
    if (!machine) return { kind: 'waiting', why: `waiting for Cluster API to set the Machine owner reference on Metal3Machine ${m3m.metadata.name}` };
    const host = await this.#host(m3m, signal);
    if (!host) return { kind: 'waiting', why: `waiting for Metal3Machine ${m3m.metadata.name} to claim a BareMetalHost` };
    const clusterName = machine.spec.clusterName ?? machine.metadata.labels?.[CLUSTER_NAME_LABEL] ?? '';

    const pools = referencedPools(template.spec, { m3m, machine, host });
    const addressed = await addressesFromPools(deps.addresses, {
      data, pools, clusterName, signal, ...(deps.settings.bmhNameBasedPreallocation ? { hostName: host.metadata.name ?? '' } : {}),
    });
    if (addressed.kind !== 'ready') return addressed;
    const sources = { index: data.spec.index ?? 0, namespace, m3m, machine, host, addresses: addressed.addresses };
    const rendered = {
      metaData: template.spec.metaData && missing.metaData ? renderMetaData(template.spec.metaData, sources) : undefined,
      networkData: template.spec.networkData && missing.networkData ? renderNetworkData(template.spec.networkData, sources) : undefined,
    };
    if (rendered.metaData && names.metaData) {
      await createRenderedSecret(deps.secrets, { data, name: names.metaData, key: META_DATA_KEY, content: rendered.metaData, clusterName, signal });
    }
    if (rendered.networkData && names.networkData) {
      await createRenderedSecret(deps.secrets, { data, name: names.networkData, key: NETWORK_DATA_KEY, content: rendered.networkData, clusterName, signal });
    }
    context.log.info('rendered data secrets', { metaData: names.metaData, networkData: names.networkData, addresses: Object.fromEntries([...addressed.addresses].map(([pool, a]) => [pool, a.address])) });
    deps.events.event(data, { type: 'Normal', reason: 'DataRendered', action: 'RenderData',
      note: `rendered ${[names.metaData, names.networkData].filter(Boolean).join(' and ')} for BareMetalHost ${host.metadata.name}` });
    return { kind: 'ready' };
  }

  async #host(m3m: Metal3Machine, signal: AbortSignal): Promise<BareMetalHost | undefined> {
    const annotation = m3m.metadata.annotations?.[HOST_ANNOTATION];
    if (!annotation) return undefined;
    const [namespace, name] = annotation.includes('/') ? annotation.split('/', 2) : [m3m.metadata.namespace ?? '', annotation];
    try {
      return await this.#deps.hosts.get({ namespace: namespace ?? '', name: name ?? '' }, { signal });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async #report(data: Metal3Data, outcome: Outcome, context: ReconcileContext): Promise<void> {
    const { log } = context;
    const next = { ready: outcome.kind === 'ready', ...(outcome.kind === 'failed' ? { errorMessage: outcome.why } : {}) };
    if (outcome.kind === 'waiting') log.info('waiting to render', { why: outcome.why });
    if (outcome.kind === 'failed' && data.status?.errorMessage !== outcome.why) {
      log.warn('cannot render', { why: outcome.why });
      this.#deps.events.event(data, { type: 'Warning', reason: 'DataRenderFailed', action: 'RenderData', note: outcome.why });
    }
    if (deepEqual(data.status ?? {}, next)) return;
    try {
      await patchStatus(this.#deps.datas.client, data, { ready: next.ready, errorMessage: next.errorMessage ?? null }, { signal: context.signal });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  /** Address claims and rendered Secrets go first; the claim finalizer is dropped here only when nobody else can (claim or template gone). */
  async #delete(data: Metal3Data, context: ReconcileContext): Promise<Result> {
    const { signal } = context;
    const released = await releaseAddresses(this.#deps.addresses, { data, signal });
    const deleted = await deleteRenderedSecrets(this.#deps.secrets, { data, signal });
    if (released.length || deleted.length) context.log.info('released', { addressClaims: released, secrets: deleted });
    let current = data;
    const namespace = data.metadata.namespace ?? '';
    const claimGone = !data.spec.claim?.name || !this.#deps.claims.get({ namespace, name: data.spec.claim.name });
    const templateGone = !data.spec.template?.name || !this.#deps.templates.get({ namespace: data.spec.template.namespace ?? namespace, name: data.spec.template.name });
    if (claimGone || templateGone) {
      current = await removeFinalizer(this.#deps.datas.client, current, METAL3_DATA_CLAIM_FINALIZER, { signal });
    }
    await removeFinalizer(this.#deps.datas.client, current, METAL3_DATA_FINALIZER, { signal });
    return {};
  }
}
