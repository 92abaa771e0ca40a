import { objectKey, objectName } from './kube-object.ts';
import type { KubeObject } from './kube-object.ts';
import { setOwnerReference } from './object-references.ts';
import type { RecentWrites } from './recent-writes.ts';
import type { ResourceClient } from './resource-client.ts';

/**
 * BMO's "set the owner reference unless `ownerReferenceExists`": makes `owner` a plain owner of
 * `obj` (no controller, nothing blocking the owner's deletion), so the garbage collector deletes
 * `obj` with its last owner. A merge patch pinned to the version read; returns the object as
 * stored, or `obj` itself when a reference to this owner (by uid) is already there. With
 * `recent`, the write is remembered there until the cache shows it.
 */
export async function ensureOwnerReference<T extends KubeObject>(
  client: Pick<ResourceClient<T>, 'patch'>,
  obj: T,
  owner: KubeObject,
  options: { signal?: AbortSignal; recent?: Pick<RecentWrites<T>, 'remember'> } = {},
): Promise<{ object: T; written: boolean }> {
  if (obj.metadata.ownerReferences?.some((ref) => ref.uid === owner.metadata.uid)) return { object: obj, written: false };
  const owned = setOwnerReference(obj, owner);
  const object = await client.patch(objectName(obj), {
    metadata: { ownerReferences: owned.metadata.ownerReferences, resourceVersion: obj.metadata.resourceVersion },
  }, { type: 'merge', ...(options.signal ? { signal: options.signal } : {}) });
  options.recent?.remember(objectKey(obj), obj.metadata.resourceVersion, object);
  return { object, written: true };
}
