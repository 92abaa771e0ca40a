import type { KubeObject } from './kube-object.ts';
import { objectName } from './kube-object.ts';
import type { ResourceClient } from './resource-client.ts';

export interface StatusPatchOptions {
  /**
   * Send the object's resourceVersion so the write fails with 409 Conflict if the object
   * changed since it was read. Use it when the status was computed from a read that a
   * concurrent writer could invalidate.
   */
  optimisticLock?: boolean;
  signal?: AbortSignal;
  fieldManager?: string;
}

/**
 * Merge-patches `status` onto the object's /status subresource. Lists inside status
 * (conditions) are replaced wholesale, as merge patches do; send the full list.
 */
export function patchStatus<T extends KubeObject>(
  client: ResourceClient<T>,
  obj: T,
  status: unknown,
  options: StatusPatchOptions = {},
): Promise<T> {
  const body: Record<string, unknown> = { status };
  if (options.optimisticLock) {
    if (!obj.metadata.resourceVersion) throw new Error('optimisticLock needs metadata.resourceVersion');
    body.metadata = { resourceVersion: obj.metadata.resourceVersion };
  }
  return client.patch(objectName(obj), body, {
    type: 'merge',
    subresource: 'status',
    signal: options.signal,
    fieldManager: options.fieldManager,
  });
}

/** Replaces the whole status with a PUT on /status; always conditional on resourceVersion. */
export function replaceStatus<T extends KubeObject>(
  client: ResourceClient<T>,
  obj: T,
  options: Omit<StatusPatchOptions, 'optimisticLock'> = {},
): Promise<T> {
  if (!obj.metadata.resourceVersion) throw new Error('replaceStatus needs metadata.resourceVersion');
  return client.replace(obj, { subresource: 'status', signal: options.signal, fieldManager: options.fieldManager });
}
