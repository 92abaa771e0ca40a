import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { run } from './commands.ts';
import { renderKustomization, type Manifest } from './kustomize.ts';

/** A controller's identity as deploy/ installs it: its ServiceAccount, bound by the roles there. */
export interface ControllerIdentity {
  /** File stem of its kubeconfig. */
  name: string;
  /** The kustomization (relative to the repository) whose RBAC is applied. */
  kustomization: string;
  namespace: string;
  serviceAccount: string;
}

export const OPERATOR_IDENTITY: ControllerIdentity = {
  name: 'operator',
  kustomization: 'deploy/operator/default',
  namespace: 'baremetal-operator-system',
  serviceAccount: 'baremetal-operator-controller-manager',
};

export const PROVIDER_IDENTITY: ControllerIdentity = {
  name: 'capm3',
  kustomization: 'deploy/capm3/default',
  namespace: 'capm3-system',
  serviceAccount: 'capm3-manager',
};

export const IPAM_IDENTITY: ControllerIdentity = {
  name: 'ipam',
  kustomization: 'deploy/ipam/default',
  namespace: 'metal3-ipam-system',
  serviceAccount: 'ipam-manager',
};

/** The user name the API server gives the ServiceAccount's tokens. */
export const identityUser = (identity: ControllerIdentity): string => `system:serviceaccount:${identity.namespace}:${identity.serviceAccount}`;

/** Where installControllerIdentity writes the identity's kubeconfig. */
export const identityKubeconfigPath = (stateDir: string, identity: ControllerIdentity): string =>
  join(stateDir, 'identities', `${identity.name}.kubeconfig`);

/** The objects that make up an identity; the rest of the install (Deployment, CRDs, ...) is left out. */
const IDENTITY_KINDS = new Set(['Namespace', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);

export function identityObjects(manifests: Manifest[]): Manifest[] {
  return manifests.filter((manifest) => IDENTITY_KINDS.has(manifest.kind));
}

export interface InstallIdentityOptions {
  kubectl: string;
  /** An admin kubeconfig: it creates the RBAC and mints the token. */
  kubeconfig: string;
  stateDir: string;
  identity: ControllerIdentity;
  /** Token lifetime; a reused stack gets a fresh token each time this runs. */
  duration?: string;
}

/**
 * Applies the identity's Namespace, ServiceAccount and RBAC rendered from deploy/ and writes a
 * kubeconfig holding a TokenRequest token of that ServiceAccount, so a process using it has
 * exactly the permissions an installed controller has. Resolves to the kubeconfig's path.
 */
export async function installControllerIdentity(options: InstallIdentityOptions): Promise<string> {
  const { identity, kubectl, kubeconfig } = options;
  const admin = ['--kubeconfig', kubeconfig];
  const objects = identityObjects(await renderKustomization({ kubectl, directory: identity.kustomization }));
  await run(kubectl, [...admin, 'apply', '--server-side', '--force-conflicts', '--field-manager=metal3-ts-identity', '-f', '-'], {
    component: `${identity.name} identity`,
    input: objects.map((object) => stringify(object)).join('---\n'),
  });
  const token = (
    await run(kubectl, [...admin, 'create', 'token', identity.serviceAccount, '-n', identity.namespace, `--duration=${options.duration ?? '24h'}`], {
      component: `${identity.name} token`,
    })
  ).trim();
  const path = identityKubeconfigPath(options.stateDir, identity);
  mkdirSync(join(options.stateDir, 'identities'), { recursive: true });
  writeFileSync(path, tokenKubeconfig({ adminKubeconfig: kubeconfig, user: identityUser(identity), token }), { mode: 0o600 });
  return path;
}

interface KubeconfigFile {
  clusters: { name: string; cluster: Record<string, unknown> }[];
}

/** The admin kubeconfig's cluster (server and CA) with a bearer token instead of the admin certificate. */
function tokenKubeconfig(options: { adminKubeconfig: string; user: string; token: string }): string {
  const admin = parse(readFileSync(options.adminKubeconfig, 'utf8')) as KubeconfigFile;
  const cluster = admin.clusters[0];
  if (!cluster) throw new Error(`${options.adminKubeconfig} names no cluster`);
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [cluster],
    users: [{ name: options.user, user: { token: options.token } }],
    contexts: [{ name: options.user, context: { cluster: cluster.name, user: options.user } }],
    'current-context': options.user,
  });
}
