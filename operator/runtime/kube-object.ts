/**
 * Plain-JSON Kubernetes object shapes. The runtime never routes objects through
 * client-node's ObjectSerializer (it drops unknown keys and turns timestamps into Dates),
 * so everything here is exactly what the API server sent: timestamps are RFC 3339 strings.
 */

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string };
  items: T[];
}

/**
 * What the runtime needs to know to reach a kind over REST: its group/version, the
 * plural used in URLs and whether it lives in namespaces.
 */
export interface ResourceType {
  /** `''` for the core group. */
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

/** A namespaced name; `namespace` is absent for cluster-scoped objects. */
export interface ObjectName {
  namespace?: string;
  name: string;
}

export function apiVersionOf(resource: Pick<ResourceType, 'group' | 'version'>): string {
  return resource.group ? `${resource.group}/${resource.version}` : resource.version;
}

/** The group part of an apiVersion (`'apps/v1'` → `'apps'`, `'v1'` → `''`). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Work-queue and cache key: `namespace/name`, or `name` for cluster-scoped objects. */
export function keyOf(name: ObjectName): string {
  return name.namespace ? `${name.namespace}/${name.name}` : name.name;
}

export function objectKey(obj: KubeObject): string {
  return keyOf(objectName(obj));
}

export function objectName(obj: KubeObject): ObjectName {
  const name = obj.metadata.name ?? '';
  return obj.metadata.namespace ? { namespace: obj.metadata.namespace, name } : { name };
}

export function parseKey(key: string): ObjectName {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** The REST path of a collection or object, optionally of a subresource such as `status`. */
export function resourcePath(
  resource: ResourceType,
  target: { namespace?: string; name?: string; subresource?: string } = {},
): string {
  const parts = [resource.group ? `/apis/${resource.group}/${resource.version}` : `/api/${resource.version}`];
  if (resource.namespaced && target.namespace) parts.push('namespaces', encodeURIComponent(target.namespace));
  parts.push(resource.plural);
  if (target.name !== undefined) parts.push(encodeURIComponent(target.name));
  if (target.subresource) {
    if (target.name === undefined) throw new Error(`subresource ${target.subresource} needs an object name`);
    parts.push(target.subresource);
  }
  return parts.join('/');
}

export function isBeingDeleted(obj: KubeObject): boolean {
  return Boolean(obj.metadata.deletionTimestamp);
}
