import type { Kubectl } from '../../support/kubectl.ts';

interface ResourceRule { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }
interface NonResourceRule { verbs: string[]; nonResourceURLs?: string[] }
interface RulesReview { status: { resourceRules: ResourceRule[]; nonResourceRules: NonResourceRule[]; incomplete: boolean } }

export interface GrantedPermissions {
  /** `verb group/resource` (`core` for the empty group), `[names]` appended when limited by name; sorted. */
  resources: string[];
  nonResourceVerbs: string[];
}

/** One line per verb and resource, so a declared list reads like the roles and diffs show each grant. */
export function flattenRules(rules: ResourceRule[]): string[] {
  const lines = new Set<string>();
  for (const rule of rules) {
    const names = rule.resourceNames?.length ? ` [${[...rule.resourceNames].sort().join(',')}]` : '';
    for (const group of rule.apiGroups ?? ['']) {
      for (const resource of rule.resources ?? []) {
        for (const verb of rule.verbs) lines.add(`${verb} ${group || 'core'}/${resource}${names}`);
      }
    }
  }
  return [...lines].sort();
}

/**
 * What the API server's authorizer grants the kubeconfig's user in `namespace`
 * (a SelfSubjectRulesReview, the data behind `kubectl auth can-i --list`).
 */
export async function grantedPermissions(kubectl: Kubectl, namespace: string): Promise<GrantedPermissions> {
  const review = JSON.parse(
    await kubectl.ok(['create', '--validate=false', '-o', 'json', '-f', '-'], JSON.stringify({
      apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace },
    })),
  ) as RulesReview;
  if (review.status.incomplete) throw new Error('the rules review is incomplete: an authorizer could not list its rules');
  return {
    resources: flattenRules(review.status.resourceRules),
    nonResourceVerbs: [...new Set(review.status.nonResourceRules.flatMap((rule) => rule.verbs))].sort(),
  };
}
