import { existsSync } from 'node:fs';
import {
  IPAM_IDENTITY, OPERATOR_IDENTITY, PROVIDER_IDENTITY, identityKubeconfigPath, installControllerIdentity, type ControllerIdentity,
} from '../../hack/stack/controller-identity.ts';
import { readState } from '../../hack/stack/state.ts';

/**
 * The operator's, the provider's and the IPAM's ServiceAccounts and RBAC from deploy/, on the test
 * stack, with a token kubeconfig each: the tests run these processes as installed controllers, never as admin.
 */
export async function installControllerIdentities(stateDir: string): Promise<void> {
  const state = readState(stateDir);
  if (!state) throw new Error(`no test stack recorded in ${stateDir}`);
  for (const identity of [OPERATOR_IDENTITY, PROVIDER_IDENTITY, IPAM_IDENTITY]) {
    await installControllerIdentity({ kubectl: state.env.kubectl, kubeconfig: state.env.kubeconfig, stateDir, identity });
  }
}

/** The identity's kubeconfig written by the global setup; fails loudly rather than fall back to admin. */
export function controllerKubeconfig(stateDir: string, identity: ControllerIdentity): string {
  const path = identityKubeconfigPath(stateDir, identity);
  if (!existsSync(path)) throw new Error(`${path} is missing: the global setup installs ${identity.name}'s ServiceAccount and RBAC`);
  return path;
}
