import { stringify } from 'yaml';
import type { KubeObject, ResourceClient } from '../../../operator/runtime/index.ts';
import { isAlreadyExists, isNotFound } from '../../../operator/runtime/index.ts';
import { CLUSTER_NAME_LABEL, INFRASTRUCTURE_API_VERSION, PROVIDER_SECRET_TYPE } from '../../api/index.ts';
import type { Metal3Data } from '../../api/index.ts';

export const META_DATA_KEY = 'metaData';
export const NETWORK_DATA_KEY = 'networkData';

export async function secretExists(secrets: ResourceClient<KubeObject>, name: { namespace: string; name: string }, signal: AbortSignal): Promise<boolean> {
  try {
    await secrets.get(name, { signal });
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/**
 * The YAML a rendered Secret holds. BMO reads it as YAML 1.1 (go-yaml v2), where an unquoted
 * `yes`, `on`, `n` or `1_000` is a boolean or a number: such strings (a label's value, say) are
 * quoted, as CAPM3's writer quotes them.
 */
export function renderedSecretText(content: unknown): string {
  return stringify(content, { version: '1.1' });
}

/**
 * Writes a rendered Secret once (CAPM3 never re-renders: a changed template takes effect on new
 * machines), as YAML under `key`, owned by the Metal3Data and labelled with the cluster.
 */
export async function createRenderedSecret(
  secrets: ResourceClient<KubeObject>,
  options: { data: Metal3Data; name: string; key: string; content: unknown; clusterName: string; signal: AbortSignal },
): Promise<void> {
  const { data } = options;
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    type: PROVIDER_SECRET_TYPE,
    metadata: {
      name: options.name,
      namespace: data.metadata.namespace,
      ...(options.clusterName ? { labels: { [CLUSTER_NAME_LABEL]: options.clusterName } } : {}),
      ownerReferences: [{ apiVersion: INFRASTRUCTURE_API_VERSION, kind: 'Metal3Data', name: data.metadata.name ?? '', uid: data.metadata.uid ?? '', controller: true }],
    },
    data: { [options.key]: Buffer.from(renderedSecretText(options.content)).toString('base64') },
  };
  try {
    await secrets.create(secret as KubeObject, { signal: options.signal });
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
}

/** Deletes the Secrets this Metal3Data rendered (owned by it), without relying on garbage collection. */
export async function deleteRenderedSecrets(secrets: ResourceClient<KubeObject>, options: { data: Metal3Data; signal: AbortSignal }): Promise<string[]> {
  const deleted: string[] = [];
  const namespace = options.data.metadata.namespace ?? '';
  for (const name of [options.data.spec.metaData?.name, options.data.spec.networkData?.name]) {
    if (!name) continue;
    let secret: KubeObject;
    try {
      secret = await secrets.get({ namespace, name }, { signal: options.signal });
    } catch (error) {
      if (isNotFound(error)) continue;
      throw error;
    }
    if (!secret.metadata.ownerReferences?.some((owner) => owner.uid === options.data.metadata.uid)) continue;
    try {
      await secrets.delete({ namespace, name }, { signal: options.signal });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    deleted.push(name);
  }
  return deleted;
}
