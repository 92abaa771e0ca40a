import { deepEqual } from '../../runtime/deep-equal.ts';
import type { Predicate } from '../../runtime/predicates.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';

/**
 * BMO's `updateEventHandler`: a host update matters when the spec (generation), the
 * finalizers, the annotations or the deletion request changed. Status-only writes, our
 * own included, do not wake the host; it polls with requeueAfter instead.
 */
export const hostChanged: Predicate = {
  update: (previous, next) =>
    previous.metadata.generation !== next.metadata.generation ||
    !deepEqual([...(previous.metadata.finalizers ?? [])].sort(), [...(next.metadata.finalizers ?? [])].sort()) ||
    !deepEqual(previous.metadata.annotations ?? {}, next.metadata.annotations ?? {}) ||
    previous.metadata.deletionTimestamp !== next.metadata.deletionTimestamp,
};

/**
 * A claimed Secret's update wakes its hosts only when what they read of it changed (its data,
 * type or deletion request). Claims by other hosts change only its metadata: with every host
 * of a lab sharing one Secret, waking all of them for each claim made N claims cost N²
 * reconciles (BMO wakes every owner), and 1,000 such hosts took most of an hour to register.
 */
export const secretContentChanged: Predicate<KubeObject & { data?: unknown; stringData?: unknown; type?: unknown }> = {
  update: (previous, next) =>
    !deepEqual(previous.data ?? {}, next.data ?? {}) ||
    !deepEqual(previous.stringData ?? {}, next.stringData ?? {}) ||
    previous.type !== next.type ||
    previous.metadata.deletionTimestamp !== next.metadata.deletionTimestamp,
};
