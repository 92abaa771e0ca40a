import type { BareMetalHost } from '../../operator/api/index.ts';
import { PAUSED_ANNOTATION } from '../../operator/api/index.ts';
import {
  CLUSTER_API_GROUP, FAILURE_DOMAIN_LABEL, INFRASTRUCTURE_GROUP, NODE_REUSE_LABEL, UNHEALTHY_ANNOTATION, UNHEALTHY_ANNOTATION_DEPRECATED,
} from '../api/index.ts';
import type { CompiledLabelSelector } from '../../operator/runtime/index.ts';

/** The Metal3Machine looking for a host. */
export interface Claimant {
  namespace: string;
  name: string;
  failureDomain?: string;
  /** `md-<MachineDeployment>` / `cp-<control plane>` when the machine's owner reuses hosts. */
  reuseLabelValue?: string;
}

export type HostChoice =
  | { kind: 'chosen'; host: BareMetalHost; via: 'existing-claim' | 'node-reuse' | 'failure-domain' | 'any' }
  /** A host booked for reuse exists but is still deprovisioning: wait for it instead of taking another. */
  | { kind: 'wait-for-reused'; host: BareMetalHost }
  | { kind: 'none'; considered: number; reasons: Record<string, number> };

const ELIGIBLE_STATES = new Set(['available', 'ready']);

/** Whether the host's consumerRef names this Metal3Machine (API group checked, version ignored, as CAPM3). */
export function consumedBy(host: BareMetalHost, claimant: Pick<Claimant, 'namespace' | 'name'>): boolean {
  const ref = host.spec.consumerRef;
  if (!ref) return false;
  const group = (ref.apiVersion ?? '').split('/')[0];
  return ref.kind === 'Metal3Machine' && group === INFRASTRUCTURE_GROUP && ref.name === claimant.name
    && (ref.namespace ?? host.metadata.namespace) === claimant.namespace;
}

/**
 * A host released for node reuse: labelled for its owner and, since CAPM3 1.14, booked with a
 * consumerRef on the Cluster so that nobody else takes it. The booking is not a claim.
 */
function bookedForReuse(host: BareMetalHost): boolean {
  const ref = host.spec.consumerRef;
  return host.metadata.labels?.[NODE_REUSE_LABEL] !== undefined && ref?.kind === 'Cluster'
    && (ref.apiVersion ?? '').split('/')[0] === CLUSTER_API_GROUP;
}

/** Why a host cannot be taken, or undefined when it can (in any provisioning state). */
function exclusion(host: BareMetalHost, claimant: Pick<Claimant, 'reuseLabelValue'>): string | undefined {
  const annotations = host.metadata.annotations ?? {};
  const reuse = host.metadata.labels?.[NODE_REUSE_LABEL];
  if (host.spec.consumerRef && !bookedForReuse(host)) return 'consumed';
  if (host.metadata.deletionTimestamp) return 'being deleted';
  if (host.status?.errorMessage) return 'in error';
  if (PAUSED_ANNOTATION in annotations) return 'paused';
  if (UNHEALTHY_ANNOTATION in annotations || UNHEALTHY_ANNOTATION_DEPRECATED in annotations) return 'unhealthy';
  if (reuse !== undefined && reuse !== claimant.reuseLabelValue) return 'kept for reuse by another owner';
  return undefined;
}

function inEligibleState(host: BareMetalHost): boolean {
  return ELIGIBLE_STATES.has(host.status?.provisioning?.state ?? '');
}

/**
 * Whether a new Metal3Machine (no host of its own, none kept for its reuse) could claim the host
 * now: chooseHost's own test for its `any` choice.
 */
export function freeToClaim(host: BareMetalHost): boolean {
  return exclusion(host, {}) === undefined && inEligibleState(host);
}

/**
 * CAPM3's chooseHost/pickHost over hosts already filtered by the selector: a host this
 * machine already consumes wins; then a host kept for this owner's reuse; then hosts in the
 * machine's failure domain; then any eligible host. Random among equals, so concurrent
 * claimants rarely collide (and the claim itself is conditional, so a collision is harmless).
 */
export function chooseHost(hosts: readonly BareMetalHost[], claimant: Claimant, random: () => number = Math.random): HostChoice {
  const mine = hosts.find((host) => consumedBy(host, claimant));
  if (mine) return { kind: 'chosen', host: mine, via: 'existing-claim' };
  const reasons: Record<string, number> = {};
  const note = (reason: string) => (reasons[reason] = (reasons[reason] ?? 0) + 1);
  const reused: BareMetalHost[] = [];
  const eligible: BareMetalHost[] = [];
  for (const host of hosts) {
    const why = exclusion(host, claimant);
    if (why) {
      note(why);
      continue;
    }
    if (claimant.reuseLabelValue && host.metadata.labels?.[NODE_REUSE_LABEL] === claimant.reuseLabelValue) reused.push(host);
    else if (inEligibleState(host)) eligible.push(host);
    else note(`not available (${host.status?.provisioning?.state || 'no state yet'})`);
  }
  if (reused.length) {
    const ready = reused.filter(inEligibleState);
    if (ready.length) return { kind: 'chosen', host: pick(ready, random), via: 'node-reuse' };
    return { kind: 'wait-for-reused', host: reused[0] as BareMetalHost };
  }
  if (claimant.failureDomain) {
    const inDomain = eligible.filter((host) => host.metadata.labels?.[FAILURE_DOMAIN_LABEL] === claimant.failureDomain);
    if (inDomain.length) return { kind: 'chosen', host: pick(inDomain, random), via: 'failure-domain' };
  }
  if (eligible.length) return { kind: 'chosen', host: pick(eligible, random), via: 'any' };
  return { kind: 'none', considered: hosts.length, reasons };
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.min(items.length - 1, Math.floor(random() * items.length))] as T;
}

/** "3 hosts match: 2 consumed, 1 not available (provisioning)", for the waiting condition. */
export function describeNoHost(choice: Extract<HostChoice, { kind: 'none' }>, selector: CompiledLabelSelector): string {
  const details = Object.entries(choice.reasons).map(([reason, count]) => `${count} ${reason}`).join(', ');
  if (choice.considered === 0) return `no BareMetalHost in the namespace matches the hostSelector (${selector.description})`;
  return `no free BareMetalHost: ${choice.considered} match the hostSelector (${selector.description}) but ${details}`;
}
