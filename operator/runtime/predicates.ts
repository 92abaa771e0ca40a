import { deepEqual } from './deep-equal.ts';
import type { KubeObject } from './kube-object.ts';

/** What an informer saw happen to one object. */
export type ObjectEvent<T extends KubeObject = KubeObject> =
  | { type: 'create'; object: T }
  | { type: 'update'; oldObject: T; object: T }
  | { type: 'delete'; object: T; finalStateUnknown: boolean };

/**
 * Filters events before they reach the queue (controller-runtime `predicate.Funcs`).
 * A missing method lets that kind of event through.
 */
export interface Predicate<T extends KubeObject = KubeObject> {
  create?(object: T): boolean;
  update?(oldObject: T, newObject: T): boolean;
  delete?(object: T): boolean;
}

export function allows<T extends KubeObject>(predicate: Predicate<T>, event: ObjectEvent<T>): boolean {
  switch (event.type) {
    case 'create':
      return predicate.create?.(event.object) ?? true;
    case 'update':
      return predicate.update?.(event.oldObject, event.object) ?? true;
    case 'delete':
      return predicate.delete?.(event.object) ?? true;
  }
}

/**
 * Passes updates only when `metadata.generation` moved, i.e. the spec changed. The usual
 * filter for a primary kind, so the controller's own status writes do not trigger it again.
 */
export const generationChanged: Predicate = {
  update: (oldObject, newObject) =>
    oldObject.metadata.generation === undefined ||
    newObject.metadata.generation === undefined ||
    oldObject.metadata.generation !== newObject.metadata.generation,
};

export const annotationChanged: Predicate = {
  update: (oldObject, newObject) =>
    !deepEqual(oldObject.metadata.annotations ?? {}, newObject.metadata.annotations ?? {}),
};

export const labelChanged: Predicate = {
  update: (oldObject, newObject) => !deepEqual(oldObject.metadata.labels ?? {}, newObject.metadata.labels ?? {}),
};

/** Finalizers are a set: order changes alone do not count. */
export const finalizerChanged: Predicate = {
  update: (oldObject, newObject) =>
    !deepEqual([...(oldObject.metadata.finalizers ?? [])].sort(), [...(newObject.metadata.finalizers ?? [])].sort()),
};

export const resourceVersionChanged: Predicate = {
  update: (oldObject, newObject) => oldObject.metadata.resourceVersion !== newObject.metadata.resourceVersion,
};

/** Passes the update that marks an object for deletion. */
export const deletionRequested: Predicate = {
  update: (oldObject, newObject) => !oldObject.metadata.deletionTimestamp && Boolean(newObject.metadata.deletionTimestamp),
};

/** Every predicate must pass. */
export function and<T extends KubeObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return {
    create: (o) => predicates.every((p) => allows(p, { type: 'create', object: o })),
    update: (a, b) => predicates.every((p) => allows(p, { type: 'update', oldObject: a, object: b })),
    delete: (o) => predicates.every((p) => allows(p, { type: 'delete', object: o, finalStateUnknown: false })),
  };
}

/** Any predicate may pass. */
export function or<T extends KubeObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return {
    create: (o) => predicates.some((p) => allows(p, { type: 'create', object: o })),
    update: (a, b) => predicates.some((p) => allows(p, { type: 'update', oldObject: a, object: b })),
    delete: (o) => predicates.some((p) => allows(p, { type: 'delete', object: o, finalStateUnknown: false })),
  };
}

export function not<T extends KubeObject>(predicate: Predicate<T>): Predicate<T> {
  return {
    create: (o) => !allows(predicate, { type: 'create', object: o }),
    update: (a, b) => !allows(predicate, { type: 'update', oldObject: a, object: b }),
    delete: (o) => !allows(predicate, { type: 'delete', object: o, finalStateUnknown: false }),
  };
}
