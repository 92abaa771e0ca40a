import type { BareMetalHost } from '../../operator/api/index.ts';
import { PAUSED_ANNOTATION, STATUS_ANNOTATION } from '../../operator/api/index.ts';
import { CAPM3_PAUSE_VALUE, CLUSTER_NAME_LABEL } from '../api/index.ts';

/**
 * Annotation changes (a merge-patch fragment of metadata.annotations, or undefined when none)
 * that mirror the Cluster's pause onto a claimed host, as CAPM3 does for `clusterctl move`:
 * paused with our value plus the status annotation BMO restores from; unpausing removes only
 * a pause with our value on a host of this cluster, never a user's own.
 */
export function pauseAnnotationChanges(
  host: BareMetalHost,
  options: { clusterPaused: boolean; clusterName: string },
): Record<string, string | null> | undefined {
  const annotations = host.metadata.annotations ?? {};
  if (options.clusterPaused) {
    if (PAUSED_ANNOTATION in annotations) return undefined;
    const { hardware: _hardware, ...status } = (host.status ?? {}) as Record<string, unknown>;
    return { [PAUSED_ANNOTATION]: CAPM3_PAUSE_VALUE, [STATUS_ANNOTATION]: JSON.stringify(status) };
  }
  if (annotations[PAUSED_ANNOTATION] !== CAPM3_PAUSE_VALUE) return undefined;
  if (host.metadata.labels?.[CLUSTER_NAME_LABEL] !== options.clusterName) return undefined;
  return { [PAUSED_ANNOTATION]: null };
}
