import type { HostConfigResult } from './host-config-error.ts';
import { HostConfigError } from './host-config-error.ts';

/** The kinds of host configuration data; each is also the preferred key in its Secret. */
export type HostConfigKind = 'userData' | 'networkData' | 'metaData';

export interface SecretReference {
  name: string;
  namespace?: string;
}

/** The parts of a BareMetalHost that point at configuration Secrets. */
export interface HostConfigHost {
  namespace: string;
  name: string;
  spec: {
    userData?: SecretReference | undefined;
    networkData?: SecretReference | undefined;
    metaData?: SecretReference | undefined;
    preprovisioningNetworkDataName?: string | undefined;
  };
}

/** Where one kind of data lives and what to do when the Secret lacks it. */
export interface HostConfigSecretRef {
  kind: HostConfigKind;
  namespace: string;
  name: string;
  /** BMO treats a Secret without network data as "no network data"; the others are errors. */
  missingKey: 'error' | 'empty';
}

const WHAT: Record<HostConfigKind, string> = { userData: 'user data', networkData: 'network data', metaData: 'metadata' };

/** BMO's wording, e.g. "could not retrieve user data: ..." */
export function retrievalPrefix(kind: HostConfigKind): string {
  return `could not retrieve ${WHAT[kind]}`;
}

function referenceOf(host: HostConfigHost, kind: HostConfigKind): SecretReference | undefined {
  const explicit = host.spec[kind];
  if (explicit !== undefined) return explicit;
  // Network data for the deployed OS defaults to the ramdisk's network data.
  const fallback = host.spec.preprovisioningNetworkDataName;
  if (kind === 'networkData' && fallback) return { name: fallback };
  return undefined;
}

/**
 * The Secret to read for one kind of data, or undefined when none is referenced. Secrets
 * in another namespace are refused before anything is fetched, as in BMO.
 */
export function hostConfigSecretRef(host: HostConfigHost, kind: HostConfigKind): HostConfigResult<HostConfigSecretRef | undefined> {
  const reference = referenceOf(host, kind);
  if (reference === undefined) return { ok: true, value: undefined };
  const namespace = reference.namespace || host.namespace;
  if (namespace !== host.namespace) {
    const message = `${retrievalPrefix(kind)}: ${kind} secret must be in same namespace as host ${host.namespace}/${host.name}`;
    return { ok: false, error: new HostConfigError({ kind: 'cross-namespace', secret: `${namespace}/${reference.name}`, key: kind, message }) };
  }
  return { ok: true, value: { kind, namespace, name: reference.name, missingKey: kind === 'networkData' ? 'empty' : 'error' } };
}

/** The ramdisk's network data: always `preprovisioningNetworkDataName` in the host namespace. */
export function preprovisioningNetworkDataRef(host: HostConfigHost): HostConfigSecretRef | undefined {
  const name = host.spec.preprovisioningNetworkDataName;
  if (!name) return undefined;
  return { kind: 'networkData', namespace: host.namespace, name, missingKey: 'empty' };
}
