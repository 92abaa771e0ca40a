// Creating the run's objects in bulk, and removing whatever is left afterwards (the local API
// server runs no garbage collector or namespace controller, so nothing goes away by itself).
import { BareMetalHostResource } from '../../../operator/api/baremetalhost.ts';
import { HardwareDataResource } from '../../../operator/api/hardwaredata.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  NamespaceResource, SecretResource, createResourceClient, isAlreadyExists, isNotFound, toKubeError,
} from '../../../operator/runtime/index.ts';
import type { KubeObject, KubeTransport, ResourceType } from '../../../operator/runtime/index.ts';
import { mapLimit } from '../concurrency.ts';

export const WRITE_CONCURRENCY = 16;

export async function ensureNamespace(transport: KubeTransport, namespace: string): Promise<void> {
  await createResourceClient(transport, NamespaceResource).create({ metadata: { name: namespace } }).catch((error: unknown) => {
    if (!isAlreadyExists(error)) throw error;
  });
}

export async function createAll(transport: KubeTransport, resource: ResourceType, objects: readonly Record<string, unknown>[]): Promise<void> {
  const client = createResourceClient(transport, resource);
  await mapLimit(objects, WRITE_CONCURRENCY, (object) => client.create(object as unknown as KubeObject));
}

export async function patchAll(transport: KubeTransport, resource: ResourceType, options: { namespace: string; names: readonly string[]; patch: unknown }): Promise<void> {
  const client = createResourceClient(transport, resource);
  await mapLimit(options.names, WRITE_CONCURRENCY, (name) => client.patch({ namespace: options.namespace, name }, options.patch, { type: 'merge' }));
}

/**
 * Deletes the named objects, at most WRITE_CONCURRENCY at a time. One that is already gone is
 * fine; any other failure fails the run: a delete that never happened would leave the phase
 * waiting for a host nobody deleted (10,000 deletes sent at once got some lost, and the run
 * waited on them).
 */
export async function deleteAll(transport: KubeTransport, resource: ResourceType, options: { namespace: string; names: readonly string[] }): Promise<void> {
  const client = createResourceClient(transport, resource);
  await mapLimit(options.names, WRITE_CONCURRENCY, (name) => client.delete({ namespace: options.namespace, name }).catch((error: unknown) => {
    if (!isNotFound(error)) throw error;
  }));
}

/** Retries while the API server answers 429 (a new CRD's storage still initialising). */
async function retryTooManyRequests<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (toKubeError(error).code !== 429 || attempt >= 30) throw error;
      await sleep(1_000);
    }
  }
}

/** Deletes every object of the kind in the namespace, finalizers stripped, so nothing stays behind. */
export async function purge(transport: KubeTransport, resource: ResourceType, namespace: string): Promise<void> {
  const client = createResourceClient(transport, resource);
  const { items } = await retryTooManyRequests(() => client.list({ namespace }));
  await mapLimit(items, WRITE_CONCURRENCY, async (object) => {
    const name = { namespace, name: object.metadata.name ?? '' };
    const ignoreGone = (error: unknown) => {
      if (!isNotFound(error)) throw error;
    };
    if (object.metadata.finalizers?.length) await client.patch(name, { metadata: { finalizers: null } }, { type: 'merge' }).catch(ignoreGone);
    await client.delete(name).catch(ignoreGone);
  });
}

/** Removes the run's namespace and what the operator and the bench left in it. */
export async function purgeNamespace(transport: KubeTransport, namespace: string): Promise<void> {
  for (const resource of [BareMetalHostResource, HardwareDataResource, SecretResource]) await purge(transport, resource, namespace);
  const namespaces = createResourceClient(transport, NamespaceResource);
  await namespaces.delete({ name: namespace }).catch(() => undefined);
  // No namespace controller: finalize it ourselves, as that controller would once it is empty.
  await transport.request({
    method: 'PUT', path: `/api/v1/namespaces/${namespace}/finalize`,
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace }, spec: { finalizers: [] } },
  }).catch(() => undefined);
}
