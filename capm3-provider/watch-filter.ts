import type { Informer, KubeObject, Predicate, Reconciler } from '../operator/runtime/index.ts';

export const WATCH_FILTER_LABEL = 'cluster.x-k8s.io/watch-filter';

/** Cluster API's --watch-filter: only objects labelled with this value are ours. */
export interface WatchFilter {
  /** For a controller's primary watch: events of other objects never enqueue them. */
  predicate: Predicate;
  accepts(object: KubeObject): boolean;
}

export function watchFilterFor(value: string | undefined): WatchFilter | undefined {
  if (!value) return undefined;
  const accepts = (object: KubeObject) => object.metadata.labels?.[WATCH_FILTER_LABEL] === value;
  return { accepts, predicate: { create: accepts, update: (_old, object) => accepts(object), delete: accepts } };
}

/**
 * Checks the filter again at reconcile time: requests mapped from other kinds (a Cluster, a
 * Machine, a host) and resyncs reach the reconciler without passing the primary watch's predicate.
 */
export function filteredReconciler<T extends KubeObject>(
  reconciler: Reconciler,
  options: { cache: Informer<T>; filter: WatchFilter | undefined },
): Reconciler {
  const { filter, cache } = options;
  if (!filter) return reconciler;
  return {
    reconcile: async (request, context) => {
      const object = cache.get(request);
      if (object && !filter.accepts(object)) return {};
      return reconciler.reconcile(request, context);
    },
  };
}
