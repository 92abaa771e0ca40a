import type { BareMetalHost } from '../../../operator/api/index.ts';
import type { ResourceClient } from '../../../operator/runtime/index.ts';
import { isNotFound } from '../../../operator/runtime/index.ts';
import { HOST_ANNOTATION } from '../../api/index.ts';
import type { Metal3Machine } from '../../api/index.ts';
import { consumedBy } from '../../baremetal/index.ts';

/** The host named by the machine's `metal3.io/BareMetalHost` annotation (always in its namespace, as CAPM3), read live. */
export async function annotatedHost(
  m3m: Metal3Machine,
  hosts: ResourceClient<BareMetalHost>,
  signal: AbortSignal,
): Promise<{ name: string; host: BareMetalHost | undefined } | undefined> {
  const value = m3m.metadata.annotations?.[HOST_ANNOTATION];
  if (!value) return undefined;
  const name = value.includes('/') ? value.slice(value.indexOf('/') + 1) : value;
  try {
    return { name, host: await hosts.get({ namespace: m3m.metadata.namespace ?? '', name }, { signal }) };
  } catch (error) {
    if (isNotFound(error)) return { name, host: undefined };
    throw error;
  }
}

/**
 * The host this machine holds, for release: the annotated one, or, when the annotation write
 * after a claim was lost, any host in the namespace whose consumerRef names the machine, so
 * deleting the machine never strands a claimed host.
 */
export async function hostToRelease(
  m3m: Metal3Machine,
  hosts: ResourceClient<BareMetalHost>,
  signal: AbortSignal,
): Promise<BareMetalHost | undefined> {
  const claimant = { namespace: m3m.metadata.namespace ?? '', name: m3m.metadata.name ?? '' };
  const annotated = (await annotatedHost(m3m, hosts, signal))?.host;
  if (annotated && consumedBy(annotated, claimant)) return annotated;
  const listed = await hosts.list({ namespace: claimant.namespace, signal });
  return listed.items.find((host) => consumedBy(host, claimant));
}
