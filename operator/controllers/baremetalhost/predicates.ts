import { deepEqual } from '../../runtime/deep-equal.ts';
import type { Predicate } from '../../runtime/predicates.ts';

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
