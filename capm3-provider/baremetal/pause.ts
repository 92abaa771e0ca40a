import type { BareMetalHost } from '../../operator/api/index.ts';
import { PAUSED_ANNOTATION, STATUS_ANNOTATION } from '../../operator/api/index.ts';
import { BLOCK_MOVE_ANNOTATION, CAPM3_PAUSE_VALUE, CLUSTER_NAME_LABEL } from '../api/index.ts';

type AnnotationChanges = Record<string, string | null>;

/**
 * Annotation changes (a merge-patch fragment of metadata.annotations, or undefined when none)
 * that mirror the Cluster's pause onto a claimed host, as CAPM3 does for `clusterctl move`.
 * Paused: our pause value plus the status annotation BMO restores from, and clusterctl's
 * block-move lifted in the same write, so a move that waited for it never sees the host
 * half-paused. Not paused: only a pause with our value on a host of this cluster is removed,
 * never a user's own, and a host left unpaused carries block-move again.
 */
export function pauseAnnotationChanges(
  host: BareMetalHost,
  options: { clusterPaused: boolean; clusterName: string },
): AnnotationChanges | undefined {
  const annotations = host.metadata.annotations ?? {};
  const changes: AnnotationChanges = {};
  if (options.clusterPaused) {
    if (!(PAUSED_ANNOTATION in annotations)) {
      const { hardware: _hardware, ...status } = (host.status ?? {}) as Record<string, unknown>;
      changes[PAUSED_ANNOTATION] = CAPM3_PAUSE_VALUE;
      changes[STATUS_ANNOTATION] = JSON.stringify(status);
    }
    if (BLOCK_MOVE_ANNOTATION in annotations) changes[BLOCK_MOVE_ANNOTATION] = null;
    return orUndefined(changes);
  }
  let pausedAfter = PAUSED_ANNOTATION in annotations;
  if (annotations[PAUSED_ANNOTATION] === CAPM3_PAUSE_VALUE && host.metadata.labels?.[CLUSTER_NAME_LABEL] === options.clusterName) {
    changes[PAUSED_ANNOTATION] = null;
    pausedAfter = false;
  }
  if (!pausedAfter && !(BLOCK_MOVE_ANNOTATION in annotations)) changes[BLOCK_MOVE_ANNOTATION] = '';
  return orUndefined(changes);
}

/** The block-move a host takes with its claim: none while someone else's pause is on it. */
export function claimAnnotationChanges(host: BareMetalHost): AnnotationChanges | undefined {
  const annotations = host.metadata.annotations ?? {};
  if (PAUSED_ANNOTATION in annotations || BLOCK_MOVE_ANNOTATION in annotations) return undefined;
  return { [BLOCK_MOVE_ANNOTATION]: '' };
}

function orUndefined(changes: AnnotationChanges): AnnotationChanges | undefined {
  return Object.keys(changes).length ? changes : undefined;
}
