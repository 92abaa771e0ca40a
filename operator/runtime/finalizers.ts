import { KubeStatusError, isInvalid, isNotFound, toKubeError } from './kube-errors.ts';
import type { KubeObject } from './kube-object.ts';
import { objectName } from './kube-object.ts';
import type { JsonPatchOperation, ResourceClient } from './resource-client.ts';

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata.finalizers?.includes(finalizer) ?? false;
}

export interface FinalizerPatchOptions {
  /**
   * `json` (default): JSON patch guarded by `test` operations, so it fails rather than
   * clobbering a list someone else changed. `merge`: a merge patch carrying the object's
   * resourceVersion. Either way a stale object fails with a Conflict, which should requeue.
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
  return guardedJsonPatch(client, obj, ops, options);
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
    return await guardedJsonPatch(client, obj, ops, options);
  } catch (error) {
    if (isNotFound(error)) return obj;
    throw error;
  }
}

/**
 * A JSON patch whose `test` fails is answered 422 Invalid with no causes (the API server drops
 * the words of the failed test), where a real validation failure lists its causes. It means what
 * a stale merge patch's 409 means, so it is thrown as a Conflict: callers retry it quietly, as
 * they do any write from an object their cache had not caught up with.
 */
async function guardedJsonPatch<T extends KubeObject>(
  client: ResourceClient<T>,
  obj: T,
  ops: JsonPatchOperation[],
  options: FinalizerPatchOptions,
): Promise<T> {
  try {
    return await client.patch(objectName(obj), ops, { type: 'json', signal: options.signal, fieldManager: options.fieldManager });
  } catch (error) {
    if (!isInvalid(error) || toKubeError(error).causes.length > 0) throw error;
    const { namespace, name } = objectName(obj);
    throw new KubeStatusError({
      kind: 'Status',
      status: 'Failure',
      code: 409,
      reason: 'Conflict',
      message: `the finalizers of ${namespace ? `${namespace}/` : ''}${name} changed since they were read (the API server refused the guarded patch)`,
    });
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
