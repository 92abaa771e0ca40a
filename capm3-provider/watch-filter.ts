import type { KubeObject, Predicate } from '../operator/runtime/index.ts';

export const WATCH_FILTER_LABEL = 'cluster.x-k8s.io/watch-filter';

/** Cluster API's --watch-filter: only objects labelled with this value are ours. */
export function watchFilterPredicate(value: string | undefined): Predicate | undefined {
  if (!value) return undefined;
  const ours = (object: KubeObject) => object.metadata.labels?.[WATCH_FILTER_LABEL] === value;
  return { create: ours, update: (_old, object) => ours(object), delete: ours };
}
