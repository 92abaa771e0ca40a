import type { Controller, Manager, MapFunc } from '../../../operator/runtime/index.ts';
import { annotationChanged, deletionRequested, finalizerChanged, generationChanged, or } from '../../../operator/runtime/index.ts';
import { ClusterResource, Metal3DataClaimResource, Metal3DataResource, Metal3DataTemplateResource } from '../../api/index.ts';
import type { Cluster, Metal3Data, Metal3DataClaim, Metal3DataTemplate } from '../../api/index.ts';
import { filteredReconciler } from '../../watch-filter.ts';
import type { WatchFilter } from '../../watch-filter.ts';
import { Metal3DataTemplateReconciler } from './reconciler.ts';

export const METAL3_DATA_TEMPLATE_CONTROLLER = 'metal3datatemplate';

export interface Metal3DataTemplateControllerOptions {
  maxConcurrentReconciles: number;
  /** How soon a claim held back by its paused Cluster is looked at again. */
  requeueAfterMs: number;
  watchFilter?: WatchFilter;
}

/** Metal3DataTemplates, woken by the claims on them and the Metal3Data made from them. */
export function setupMetal3DataTemplateController(manager: Manager, options: Metal3DataTemplateControllerOptions): Controller {
  const templates = manager.informer<Metal3DataTemplate>(Metal3DataTemplateResource);
  const reconciler = new Metal3DataTemplateReconciler({
    templates: { client: manager.client<Metal3DataTemplate>(Metal3DataTemplateResource), cache: templates },
    claims: { client: manager.client<Metal3DataClaim>(Metal3DataClaimResource), cache: manager.informer<Metal3DataClaim>(Metal3DataClaimResource) },
    datas: { client: manager.client<Metal3Data>(Metal3DataResource), cache: manager.informer<Metal3Data>(Metal3DataResource) },
    clusters: manager.informer<Cluster>(ClusterResource),
    events: manager.eventRecorder('metal3datatemplate-controller'),
    settings: { requeueAfterMs: options.requeueAfterMs },
  }, manager.clock);
  const claimToTemplate: MapFunc<Metal3DataClaim> = (claim) => {
    const name = claim.spec?.template?.name;
    return name ? [{ namespace: claim.spec.template.namespace ?? claim.metadata.namespace, name }] : [];
  };
  const dataToTemplate: MapFunc<Metal3Data> = (data) => {
    const name = data.spec?.template?.name;
    return name ? [{ namespace: data.spec.template?.namespace ?? data.metadata.namespace, name }] : [];
  };
  const changed = or(generationChanged, annotationChanged, finalizerChanged, deletionRequested);
  return manager
    .controller(METAL3_DATA_TEMPLATE_CONTROLLER)
    .for(Metal3DataTemplateResource, { predicates: options.watchFilter ? [changed, options.watchFilter.predicate] : [changed] })
    .watches(Metal3DataClaimResource, claimToTemplate, { predicates: [changed] })
    .watches(Metal3DataResource, dataToTemplate, { predicates: [or(finalizerChanged, deletionRequested)] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(filteredReconciler(reconciler, { cache: templates, filter: options.watchFilter }));
}
