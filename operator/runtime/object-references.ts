import { groupOf } from './kube-object.ts';
import type { KubeObject, OwnerReference } from './kube-object.ts';

/** `corev1.ObjectReference` as Events, status fields and CAPI contracts use it. */
export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export function objectReference(obj: KubeObject, options: { withResourceVersion?: boolean } = {}): ObjectReference {
  const ref: ObjectReference = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name };
  if (obj.metadata.namespace) ref.namespace = obj.metadata.namespace;
  if (obj.metadata.uid) ref.uid = obj.metadata.uid;
  if (options.withResourceVersion && obj.metadata.resourceVersion) ref.resourceVersion = obj.metadata.resourceVersion;
  return ref;
}

export function ownerReference(
  owner: KubeObject,
  options: { controller?: boolean; blockOwnerDeletion?: boolean } = {},
): OwnerReference {
  if (!owner.apiVersion || !owner.kind || !owner.metadata.name || !owner.metadata.uid) {
    throw new Error('an owner needs apiVersion, kind, metadata.name and metadata.uid');
  }
  const ref: OwnerReference = {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
  };
  if (options.controller !== undefined) ref.controller = options.controller;
  if (options.blockOwnerDeletion !== undefined) ref.blockOwnerDeletion = options.blockOwnerDeletion;
  return ref;
}

export class AlreadyOwnedError extends Error {
  override name = 'AlreadyOwnedError';
}

const sameOwner = (a: OwnerReference, b: OwnerReference): boolean =>
  a.name === b.name && a.kind === b.kind && groupOf(a.apiVersion) === groupOf(b.apiVersion);

export function getControllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((ref) => ref.controller === true);
}

function checkScope(obj: KubeObject, owner: KubeObject): void {
  // Namespaced owners must live in the dependent's namespace; cluster-scoped ones anywhere.
  if (owner.metadata.namespace && owner.metadata.namespace !== obj.metadata.namespace) {
    throw new Error(
      `cross-namespace owner references are not allowed: owner ${owner.metadata.namespace}/${owner.metadata.name}, object in ${obj.metadata.namespace ?? '<cluster>'}`,
    );
  }
}

/**
 * `controllerutil.SetControllerReference`: returns a copy of `obj` owned by `owner` with
 * `controller` and `blockOwnerDeletion` set, so garbage collection cascades. Throws
 * AlreadyOwnedError if a different controller already owns it.
 */
export function setControllerReference<T extends KubeObject>(obj: T, owner: KubeObject): T {
  checkScope(obj, owner);
  const ref = ownerReference(owner, { controller: true, blockOwnerDeletion: true });
  const current = getControllerOf(obj);
  if (current && !sameOwner(current, ref)) {
    throw new AlreadyOwnedError(
      `${obj.kind ?? 'object'} ${obj.metadata.name} is already controlled by ${current.kind} ${current.name}`,
    );
  }
  return withOwnerReference(obj, ref);
}

/** `controllerutil.SetOwnerReference`: a plain (non-controller) owner reference. */
export function setOwnerReference<T extends KubeObject>(obj: T, owner: KubeObject): T {
  checkScope(obj, owner);
  return withOwnerReference(obj, ownerReference(owner));
}

export function removeOwnerReference<T extends KubeObject>(obj: T, owner: KubeObject): T {
  const refs = obj.metadata.ownerReferences ?? [];
  const kept = refs.filter((r) => r.uid !== owner.metadata.uid);
  return kept.length === refs.length ? obj : { ...obj, metadata: { ...obj.metadata, ownerReferences: kept } };
}

function withOwnerReference<T extends KubeObject>(obj: T, ref: OwnerReference): T {
  const refs = obj.metadata.ownerReferences ?? [];
  const index = refs.findIndex((r) => sameOwner(r, ref));
  const next = index < 0 ? [...refs, ref] : refs.map((r, i) => (i === index ? ref : r));
  return { ...obj, metadata: { ...obj.metadata, ownerReferences: next } };
}
