import type {
  Clock, EventRecorder, Informer, ReconcileContext, Reconciler, Request, ResourceClient, Result,
} from '../../../operator/runtime/index.ts';
import {
  addFinalizer, deepEqual, formatTime, hasFinalizer, isAlreadyExists, isNotFound, patchStatus, removeFinalizer,
} from '../../../operator/runtime/index.ts';
import {
  CLUSTER_PAUSED_ANNOTATION, INFRASTRUCTURE_API_VERSION, METAL3_DATA_CLAIM_FINALIZER, METAL3_DATA_TEMPLATE_FINALIZER,
  Metal3DataClaimResource, metal3DataClaimSchema, metal3DataSchema, metal3DataTemplateSchema,
} from '../../api/index.ts';
import type { Cluster, IndexEntry, Metal3Data, Metal3DataClaim, Metal3DataTemplate } from '../../api/index.ts';
import { dataName, indexesOf, lowestFreeIndex } from '../../data/index.ts';
import { clusterOf, isPaused } from '../metal3cluster/cluster-links.ts';
import { claimMachine } from './claim-owner.ts';

export interface DataTemplateDeps {
  templates: { client: ResourceClient<Metal3DataTemplate>; cache: Informer<Metal3DataTemplate> };
  claims: { client: ResourceClient<Metal3DataClaim>; cache: Informer<Metal3DataClaim> };
  datas: { client: ResourceClient<Metal3Data>; cache: Informer<Metal3Data> };
  /** A template serves several clusters, so each claim's own Cluster says whether it is paused. */
  clusters: Informer<Cluster>;
  events: EventRecorder;
  settings: { requeueAfterMs: number };
}

/**
 * CAPM3's Metal3DataTemplate reconciler: every live claim on the template gets the lowest free
 * index and a Metal3Data `<template>-<index>`, unless its Cluster is paused (then it waits, as
 * CAPM3 1.14's fix for `clusterctl move`); a claim being deleted gets its Metal3Data deleted
 * and its finalizer removed. The template keeps its finalizer while claims or data remain, and
 * serves claim deletions while it is itself being deleted, so neither side hangs.
 */
export class Metal3DataTemplateReconciler implements Reconciler {
  readonly #deps: DataTemplateDeps;
  readonly #clock: Clock;

  constructor(deps: DataTemplateDeps, clock: Clock) {
    this.#deps = deps;
    this.#clock = clock;
  }

  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    const cached = this.#deps.templates.cache.get(request);
    if (!cached) return {};
    let template = metal3DataTemplateSchema.parse(cached);
    if (template.metadata.annotations?.[CLUSTER_PAUSED_ANNOTATION] !== undefined) {
      context.log.debug('paused; not serving claims');
      return {};
    }
    const namespace = template.metadata.namespace ?? '';
    const name = template.metadata.name ?? '';
    const deleting = template.metadata.deletionTimestamp !== undefined;
    if (!deleting) {
      template = await addFinalizer(this.#deps.templates.client, template, METAL3_DATA_TEMPLATE_FINALIZER, { signal: context.signal });
    }
    const datas = this.#deps.datas.cache.list(namespace).map((data) => metal3DataSchema.parse(data));
    const indexes = indexesOf(datas, name);
    const claims = this.#deps.claims.cache.list(namespace).map((claim) => metal3DataClaimSchema.parse(claim))
      .filter((claim) => claim.spec.template.name === name);
    let result: Result = {};
    for (const claim of claims) {
      if (claim.metadata.deletionTimestamp) {
        await this.#release(claim, { template: name, indexes, signal: context.signal, log: context.log });
      } else if (!deleting && isPaused(clusterOf(claim, this.#deps.clusters), claim)) {
        // CAPM3 1.14: during `clusterctl move` a claim may arrive before its Metal3Data; made
        // anew here, with perhaps another index, the moved one would then be refused.
        context.log.info('claim not served while its Cluster is paused', { claim: claim.metadata.name });
        if (!('requeue' in result)) result = { requeueAfter: this.#deps.settings.requeueAfterMs };
      } else if (!deleting) {
        const served = await this.#serve(claim, { template, indexes, signal: context.signal, log: context.log });
        if (!served) result = { requeue: true };
      }
    }
    await this.#writeStatus(template, indexes, context.signal);
    const inUse = claims.length > 0 || datas.some((data) => data.spec.template?.name === name);
    if (deleting && !inUse) {
      await removeFinalizer(this.#deps.templates.client, template, METAL3_DATA_TEMPLATE_FINALIZER, { signal: context.signal });
      context.log.info('template no longer in use; finalizer removed');
    } else if (deleting) {
      context.log.info('template is being deleted but still in use', { claims: claims.map((claim) => claim.metadata.name) });
    }
    return result;
  }

  /** Gives the claim its Metal3Data (made once, at the lowest free index) and points the claim at it. */
  async #serve(
    claim: Metal3DataClaim,
    options: { template: Metal3DataTemplate; indexes: IndexEntry[]; signal: AbortSignal; log: ReconcileContext['log'] },
  ): Promise<boolean> {
    const { template, indexes, signal } = options;
    const templateName = template.metadata.name ?? '';
    const namespace = template.metadata.namespace ?? '';
    const claimName = claim.metadata.name ?? '';
    const current = await addFinalizer(this.#deps.claims.client, claim, METAL3_DATA_CLAIM_FINALIZER, { signal });
    let entry = indexes.find((candidate) => candidate.name === claimName);
    if (!entry) {
      const machine = claimMachine(claim);
      if (!machine) {
        await this.#claimStatus(current, { errorMessage: 'Metal3Machine not found in owner references' }, signal);
        this.#deps.events.event(current, { type: 'Warning', reason: 'NoOwningMetal3Machine', action: 'RenderData',
          note: 'the claim has no Metal3Machine owner reference, so no Metal3Data is made for it' });
        return true;
      }
      const index = lowestFreeIndex(indexes.map((known) => known.index));
      const data: Metal3Data = {
        apiVersion: INFRASTRUCTURE_API_VERSION,
        kind: 'Metal3Data',
        metadata: {
          name: dataName(templateName, index),
          namespace,
          finalizers: [METAL3_DATA_CLAIM_FINALIZER],
          ...(claim.metadata.labels ? { labels: claim.metadata.labels } : {}),
          ownerReferences: [
            { apiVersion: INFRASTRUCTURE_API_VERSION, kind: Metal3DataClaimResource.kind, name: claimName, uid: claim.metadata.uid ?? '', controller: true },
            { apiVersion: machine.apiVersion, kind: machine.kind, name: machine.name, uid: machine.uid },
          ],
        },
        spec: { index, template: { name: templateName, namespace }, claim: { name: claimName, namespace } },
      };
      try {
        await this.#deps.datas.client.create(data, { signal });
      } catch (error) {
        // The cache was behind (a Metal3Data of this index exists): count again on the next pass.
        if (isAlreadyExists(error)) return false;
        throw error;
      }
      entry = { name: claimName, index };
      indexes.push(entry);
      indexes.sort((left, right) => left.index - right.index);
      options.log.info('index assigned', { claim: claimName, index });
      this.#deps.events.event(current, { type: 'Normal', reason: 'IndexAssigned', action: 'RenderData',
        note: `index ${index}: Metal3Data ${data.metadata.name}` });
    }
    await this.#claimStatus(current, { renderedData: { name: dataName(templateName, entry.index), namespace } }, signal);
    return true;
  }

  /** A claim going away: its Metal3Data goes too (it keeps its own finalizer until its addresses are released). */
  async #release(
    claim: Metal3DataClaim,
    options: { template: string; indexes: IndexEntry[]; signal: AbortSignal; log: ReconcileContext['log'] },
  ): Promise<void> {
    if (!hasFinalizer(claim, METAL3_DATA_CLAIM_FINALIZER)) return;
    const { indexes, signal } = options;
    const claimName = claim.metadata.name ?? '';
    const namespace = claim.metadata.namespace ?? '';
    const entry = indexes.find((candidate) => candidate.name === claimName);
    const names = new Set([entry ? dataName(options.template, entry.index) : undefined, claim.status?.renderedData?.name].filter((name) => name !== undefined));
    for (const name of names) {
      const data = this.#deps.datas.cache.get({ namespace, name });
      if (!data || metal3DataSchema.parse(data).spec.claim?.name !== claimName) continue;
      await removeFinalizer(this.#deps.datas.client, data, METAL3_DATA_CLAIM_FINALIZER, { signal });
      try {
        await this.#deps.datas.client.delete({ namespace, name }, { signal });
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      options.log.info('deleted Metal3Data of a deleted claim', { claim: claimName, data: name });
    }
    // The index stays taken until the Metal3Data is really gone (indexes come from existing data).
    await removeFinalizer(this.#deps.claims.client, claim, METAL3_DATA_CLAIM_FINALIZER, { signal });
  }

  async #claimStatus(claim: Metal3DataClaim, next: NonNullable<Metal3DataClaim['status']>, signal: AbortSignal): Promise<void> {
    if (deepEqual(claim.status ?? {}, next)) return;
    const patch = { renderedData: next.renderedData ?? null, errorMessage: next.errorMessage ?? null };
    try {
      await patchStatus(this.#deps.claims.client, claim, patch, { signal });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async #writeStatus(template: Metal3DataTemplate, indexes: IndexEntry[], signal: AbortSignal): Promise<void> {
    if (deepEqual(template.status?.indexes ?? [], indexes)) return;
    try {
      await patchStatus(this.#deps.templates.client, template, { indexes, lastUpdated: formatTime(new Date(this.#clock.now())) }, { signal });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}

