import { isNotFound } from './kube-errors.ts';
import type { KubeObject } from './kube-object.ts';
import { objectName } from './kube-object.ts';
import type { JsonPatchOperation, ResourceClient } from './resource-client.ts';

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata.finalizers?.includes(finalizer) ?? false;
}

export interface FinalizerPatchOptions {
  /**
   * `json` (default): JSON patch guarded by `test` operations, so it fails (422) rather than
   * clobbering a list someone else changed. `merge`: a merge patch carrying the object's
   * resourceVersion, so a stale object fails with 409 Conflict. Either failure should
   * requeue.
   */
  strategy?: 'json' | 'merge';
  signal?: AbortSignal;
  fieldManager?: string;
}

/** Adds `finalizer` unless present; returns the updated object (or `obj` when nothing was needed). */
export async function addFinalizer<T extends KubeObject>(
  client: ResourceClient<T>,
  obj: T,
  finalizer: string,
  options: FinalizerPatchOptions = {},
): Promise<T> {
  if (hasFinalizer(obj, finalizer)) return obj;
  const current = obj.metadata.finalizers ?? [];
  if (options.strategy === 'merge') return mergeFinalizers(client, obj, [...current, finalizer], options);
  const ops: JsonPatchOperation[] = current.length
    ? [
        { op: 'test', path: '/metadata/finalizers', value: current },
        { op: 'add', path: '/metadata/finalizers/-', value: finalizer },
      ]
    : [
        // There is no list to test; guard on the version instead of overwriting a list
        // another writer just created.
        { op: 'test', path: '/metadata/resourceVersion', value: obj.metadata.resourceVersion },
        { op: 'add', path: '/metadata/finalizers', value: [finalizer] },
      ];
  return client.patch(objectName(obj), ops, { type: 'json', signal: options.signal, fieldManager: options.fieldManager });
}

/**
 * Removes `finalizer` if present; returns the updated object (or `obj` when nothing was
 * needed). A NotFound answer means the object is already gone, which is what removing
 * the last finalizer leads to anyway, so it returns `obj` then too.
 */
export async function removeFinalizer<T extends KubeObject>(
  client: ResourceClient<T>,
  obj: T,
  finalizer: string,
  options: FinalizerPatchOptions = {},
): Promise<T> {
  const current = obj.metadata.finalizers ?? [];
  const index = current.indexOf(finalizer);
  if (index < 0) return obj;
  try {
    if (options.strategy === 'merge') {
      return await mergeFinalizers(client, obj, current.filter((f) => f !== finalizer), options);
    }
    const ops: JsonPatchOperation[] = [
      { op: 'test', path: `/metadata/finalizers/${index}`, value: finalizer },
      { op: 'remove', path: `/metadata/finalizers/${index}` },
    ];
    return await client.patch(objectName(obj), ops, { type: 'json', signal: options.signal, fieldManager: options.fieldManager });
  } catch (error) {
    if (isNotFound(error)) return obj;
    throw error;
  }
}

function mergeFinalizers<T extends KubeObject>(
  client: ResourceClient<T>,
  obj: T,
  finalizers: string[],
  options: FinalizerPatchOptions,
): Promise<T> {
  // A merge patch replaces the whole list, so it must carry the version it was based on.
  const patch = { metadata: { finalizers, resourceVersion: obj.metadata.resourceVersion } };
  return client.patch(objectName(obj), patch, { type: 'merge', signal: options.signal, fieldManager: options.fieldManager });
}
