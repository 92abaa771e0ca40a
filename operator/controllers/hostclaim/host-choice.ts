import type { BareMetalHost } from '../../api/baremetalhost.ts';
import { PAUSED_ANNOTATION } from '../../api/annotations.ts';
import { HostClaimResource } from '../../api/hostclaim.ts';
import { FAILURE_DOMAIN_LABEL } from '../../api/labels.ts';
import type { CompiledLabelSelector } from '../../runtime/label-selector.ts';

export interface ClaimIdentity {
  namespace: string;
  name: string;
  failureDomain?: string | undefined;
}

export type ClaimHostChoice =
  | { kind: 'held'; host: BareMetalHost }
  | { kind: 'chosen'; host: BareMetalHost }
  | { kind: 'none'; considered: number; reasons: Record<string, number> };

/** BMO's consumerRefMatches: a HostClaim of metal3.io by this name and namespace. */
export function heldBy(host: BareMetalHost, claim: Pick<ClaimIdentity, 'namespace' | 'name'>): boolean {
  const ref = host.spec.consumerRef;
  return ref !== undefined && ref.kind === HostClaimResource.kind && (ref.apiVersion ?? '').split('/')[0] === HostClaimResource.group
    && ref.name === claim.name && ref.namespace === claim.namespace;
}

/** Why a host may not be claimed now; undefined when it may. */
function exclusion(host: BareMetalHost): string | undefined {
  if (host.spec.consumerRef !== undefined) return 'consumed';
  if (host.metadata.deletionTimestamp !== undefined) return 'being deleted';
  if (host.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined) return 'paused';
  const state = host.status?.provisioning.state ?? '';
  if (state !== 'ready' && state !== 'available') return `not available (${state || 'no state yet'})`;
  if (host.status?.errorMessage) return 'in error';
  return undefined;
}

/**
 * BMO's chooseBMH: the host this claim already holds, else one at random among the free,
 * available, unpaused hosts of the accepted namespaces that match the selector, preferring the
 * claim's failure domain when any host is in it.
 */
export function chooseHostForClaim(
  hosts: readonly BareMetalHost[],
  options: { claim: ClaimIdentity; selector: CompiledLabelSelector; namespaces: ReadonlySet<string>; random?: () => number },
): ClaimHostChoice {
  const candidates = hosts.filter((host) => options.namespaces.has(host.metadata.namespace ?? '') && options.selector.matches(host.metadata.labels));
  const held = candidates.find((host) => heldBy(host, options.claim));
  if (held) return { kind: 'held', host: held };
  const reasons: Record<string, number> = {};
  const free: BareMetalHost[] = [];
  for (const host of candidates) {
    const why = exclusion(host);
    if (why === undefined) free.push(host);
    else reasons[why] = (reasons[why] ?? 0) + 1;
  }
  if (free.length === 0) return { kind: 'none', considered: candidates.length, reasons };
  const inDomain = options.claim.failureDomain ? free.filter((host) => host.metadata.labels?.[FAILURE_DOMAIN_LABEL] === options.claim.failureDomain) : [];
  const pool = inDomain.length > 0 ? inDomain : free;
  const random = options.random ?? Math.random;
  return { kind: 'chosen', host: pool[Math.floor(random() * pool.length)] as BareMetalHost };
}

/** "No available host found", and why, for the Associated condition. */
export function describeNoHost(choice: Extract<ClaimHostChoice, { kind: 'none' }>, options: { selector: CompiledLabelSelector; namespaces: ReadonlySet<string> }): string {
  const where = [...options.namespaces].sort().join(', ');
  const why = Object.entries(choice.reasons).map(([reason, count]) => `${count} ${reason}`).join(', ');
  return `No available host found: ${choice.considered} BareMetalHosts in ${where} match the hostSelector (${options.selector.description})${why ? ` but ${why}` : ''}: requeuing.`;
}
