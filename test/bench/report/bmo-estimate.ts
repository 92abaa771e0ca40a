// What Metal3's baremetal-operator (BMO) would send Ironic for the same host timeline, from its
// polling cadence. The model, from BMO's sources (pkg/provisioner/ironic/register.go, ironic.go,
// internal/controller/metal3.io/action_result.go; /work/shared/reference/bmo.md §2.4-2.5):
//
// - Every reconcile of a registered host runs Register, which reads the node (getNode: GET
//   /v1/nodes/{id}, never cached) and, with a bootMACAddress, lists its ports (ensurePort ->
//   nodeHasAssignedPort: GET /v1/ports?node_uuid=), then the state's handler reads the node
//   again (getNode). So a poll costs 3 requests.
// - A host is reconciled once when it enters a state (status saved, immediate requeue), then
//   every `interval` plus 0-25 % jitter (mean 12.5 %): 3 s for quick Ironic transitions
//   (registering: enroll -> verifying -> manageable; preparing), 10 s while the ramdisk works
//   (inspecting, provisioning: cleaning + deploying, deprovisioning), 60 s in steady states
//   (available, provisioned: power monitoring) while the other hosts finish.
// - One-off requests per phase: registering a new host looks it up by name twice (`ns~name`,
//   legacy `name`) and by boot MAC, creates the node and its port, asks `manage` and PATCHes
//   the deploy images in (7); entering inspecting checks capacity (a node list) and then asks
//   `inspect` and reads the inventory (3); provisioning checks capacity, asks `provide`,
//   PATCHes instance_info, validates and asks `active` (5); deprovisioning checks capacity and
//   asks `deleted` (2).
// Errors, 409 retries and re-reads are left out, so the figure is a lower bound for BMO.
import { round2 } from '../metrics/counter-totals.ts';
import type { BmoEstimate, PhaseName } from './types.ts';

export const BMO_REQUESTS_PER_POLL = 3;
export const BMO_MEAN_JITTER = 0.125;

/** BMO's requeue interval per BareMetalHost state; states absent here cost no Ironic request. */
export const BMO_POLL_INTERVAL_MS: Readonly<Record<string, number>> = {
  registering: 3_000,
  preparing: 3_000,
  inspecting: 10_000,
  provisioning: 10_000,
  deprovisioning: 10_000,
  available: 60_000,
  ready: 60_000,
  provisioned: 60_000,
};

export const BMO_ONE_OFF_REQUESTS: Readonly<Record<PhaseName, number>> = { register: 10, provision: 5, deprovision: 2 };

/** A state a host was in from `atMs` on. */
export interface StateVisit {
  state: string;
  atMs: number;
}

/** Reconciles BMO would run for one host between start and end, given the states it went through. */
export function bmoPolls(visits: readonly StateVisit[], window: { startMs: number; endMs: number }): number {
  let polls = 0;
  visits.forEach((visit, index) => {
    const interval = BMO_POLL_INTERVAL_MS[visit.state];
    if (interval === undefined) return;
    const from = Math.max(visit.atMs, window.startMs);
    const to = Math.min(visits[index + 1]?.atMs ?? window.endMs, window.endMs);
    if (to < from) return;
    // The first registering reconcile only looks the node up and creates it: one-off requests.
    const entry = visit.state === 'registering' ? 0 : 1;
    polls += entry + Math.floor((to - from) / (interval * (1 + BMO_MEAN_JITTER)));
  });
  return polls;
}

/** Per-host average for a phase: polls x 3 requests + the phase's one-off requests. */
export function bmoEstimate(options: {
  phase: PhaseName;
  hosts: ReadonlyArray<readonly StateVisit[]>;
  startMs: number;
  endMs: number;
}): BmoEstimate {
  if (options.hosts.length === 0) return { pollsPerHost: 0, requestsPerHost: 0 };
  const polls = options.hosts.map((visits) => bmoPolls(visits, options));
  const pollsPerHost = polls.reduce((sum, value) => sum + value, 0) / polls.length;
  return {
    pollsPerHost: round2(pollsPerHost),
    requestsPerHost: round2(pollsPerHost * BMO_REQUESTS_PER_POLL + BMO_ONE_OFF_REQUESTS[options.phase]),
  };
}
