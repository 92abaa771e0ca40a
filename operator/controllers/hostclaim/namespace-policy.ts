import type { HostDeployPolicy } from '../../api/hostdeploypolicy.ts';

/** The HostClaim's namespace, as the policies judge it. */
export interface ClaimNamespace {
  name: string;
  labels: Readonly<Record<string, string>>;
}

/** A policy whose namespace pattern is not a regular expression: the claim cannot be judged until it is fixed. */
export class PolicyError extends Error {}

/** Whether one policy opens its namespace to the claim's: every constraint it states must hold. */
function opens(policy: HostDeployPolicy, claimNamespace: ClaimNamespace): boolean {
  const constraints = policy.spec.hostClaimNamespaces;
  if (constraints === undefined) return false;
  if (constraints.names !== undefined && !constraints.names.includes(claimNamespace.name)) return false;
  if (constraints.nameMatches) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(constraints.nameMatches);
    } catch (error) {
      throw new PolicyError(`HostDeployPolicy ${policy.metadata.namespace ?? ''}/${policy.metadata.name ?? ''}: nameMatches ${JSON.stringify(constraints.nameMatches)} is not a regular expression: ${(error as Error).message}`);
    }
    if (!pattern.test(claimNamespace.name)) return false;
  }
  return (constraints.hasLabels ?? []).every(({ name, value }) =>
    Object.hasOwn(claimNamespace.labels, name) && (!value || claimNamespace.labels[name] === value));
}

/**
 * BMO's acceptableNamespaces: the namespaces (of `inNamespace` only, when the claim names one)
 * whose HostDeployPolicies let HostClaims of the claim's namespace take their hosts.
 * Throws PolicyError for a policy that cannot be read.
 */
export function acceptableNamespaces(policies: readonly HostDeployPolicy[], claimNamespace: ClaimNamespace, inNamespace: string | undefined): Set<string> {
  const namespaces = new Set<string>();
  for (const policy of policies) {
    const namespace = policy.metadata.namespace ?? '';
    if (inNamespace && namespace !== inNamespace) continue;
    if (namespaces.has(namespace)) continue;
    if (opens(policy, claimNamespace)) namespaces.add(namespace);
  }
  return namespaces;
}
