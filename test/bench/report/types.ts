// The benchmark's JSON report: what was run, on what, and the figures per phase.
import type { Totals } from '../metrics/counter-totals.ts';
import type { HeapBreakdown } from '../metrics/heap-snapshot.ts';

export type BenchMode = 'redfish' | 'fake-hardware' | 'fixture';

/** The three halves of a host's life the benchmark times, in order. */
export type PhaseName = 'register' | 'provision' | 'deprovision';
export const PHASES: readonly PhaseName[] = ['register', 'provision', 'deprovision'];
export const PHASE_TITLES: Record<PhaseName, string> = {
  register: 'created → available',
  provision: 'image set → provisioned',
  deprovision: 'image cleared → available',
};

export interface PhaseTiming {
  /** Hosts that started the phase. */
  hosts: number;
  /** Hosts that reached the phase's target state before the timeout. */
  completed: number;
  /** Phase start (first create or patch) to the last host reaching the target, or to the timeout. */
  seconds: number;
  hostsPerMinute: number;
  perHostSeconds: { p50: number; p90: number; max: number };
}

export interface RequestCounts {
  total: number;
  perHost: number;
  /** `METHOD route` (Ironic) or `verb resource` (Kubernetes: `patch baremetalhosts/status`) -> requests per host. */
  byKeyPerHost: Totals;
}

export interface FloorPhase extends PhaseTiming {
  ironic: RequestCounts;
  /** Ironic requests open on average over the phase (absent in reports before 2026-12-03, session 26). */
  ironicRequestsOpen?: number;
  /** Seconds requests were open per host, by `METHOD route` (absent before 2026-12-04, session 28). */
  ironicSecondsPerHost?: Totals;
  /** CPU seconds of each stack process tree (Ironic, kube-apiserver, etcd…) in the phase. */
  stackCpuSeconds?: Totals;
}

export interface FloorResult {
  /** How often the floor lists node states (one request for all nodes). */
  pollMs: number;
  phases: Record<PhaseName, FloorPhase>;
}

/** What BMO's polling cadence implies for the same per-state times (see bmo-estimate.ts). */
export interface BmoEstimate {
  pollsPerHost: number;
  requestsPerHost: number;
}

export interface OperatorPhase extends PhaseTiming {
  /** Absent with the fixture provisioner. */
  ironic?: RequestCounts;
  /** `GET /v1/nodes` (lists of all nodes) in the phase, in all; absent with the fixture provisioner. */
  ironicNodeLists?: number;
  /**
   * The operator's Ironic requests open on average over the phase (the summed latency of
   * ironic_client_request_duration_seconds over the phase's length): how much of its concurrency
   * waited on Ironic. Absent with the fixture provisioner and before 2026-12-03.
   */
  ironicRequestsOpen?: number;
  /** Seconds requests were open per host, by `METHOD route` (absent before 2026-12-04, session 28). */
  ironicSecondsPerHost?: Totals;
  kube: RequestCounts;
  /** Connections the Kubernetes client opened in the phase (rest_client_connections_opened_total). */
  kubeConnectionsOpened: number;
  cpuSeconds: number;
  rssMiBAtEnd: number;
  /** V8 heap in use at the phase end (nodejs_heap_size_used_bytes): live objects, unlike RSS. */
  heapUsedMiBAtEnd: number;
  /** CPU seconds of each stack process tree in the phase, the operator's own not included. */
  stackCpuSeconds?: Totals;
  /** Operator seconds / floor seconds for the same phase in the same run. */
  ratioToFloor?: number;
  bmo?: BmoEstimate;
}

/** Deleting every host through the operator, after the three phases, timed the same way. */
export interface OperatorDeletion {
  hosts: number;
  deleted: number;
  seconds: number;
  hostsPerMinute: number;
  ironic?: RequestCounts;
  kube: RequestCounts;
  kubeConnectionsOpened: number;
  cpuSeconds: number;
}

export interface OperatorRun {
  label: string;
  poll: { shortMs: number; longMs: number };
  phases: Record<PhaseName, OperatorPhase>;
  deletion?: OperatorDeletion;
  /** The operator's V8 heap by constructor, when the run took a snapshot (`--heap-snapshot`). */
  heap?: HeapBreakdown & { afterPhase: PhaseName };
  lifecycle: {
    ironicRequestsPerHost?: number;
    bmoIronicRequestsPerHost?: number;
    kubeRequestsPerHost: number;
    cpuSeconds: number;
    peakRssMiB: number;
  };
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  os: string;
  node: string;
  /** 1-minute load average when the run started: other work on the machine skews times. */
  loadAverageAtStart: number;
}

export interface BenchSettings {
  mode: BenchMode;
  hosts: number;
  concurrency: number;
  provisioningLimit: number;
  floorPollMs: number;
  floorInFlight: number;
  phaseTimeoutMs: number;
  /** The Node/V8 flags the operator process ran with (absent in reports before 2026-11-27). */
  operatorNodeFlags?: string[];
  /** The environment the operator's process settings add, e.g. MALLOC_ARENA_MAX (absent before 2026-11-28, session 16). */
  operatorProcessEnv?: Record<string, string>;
  /** Ironic's `sync_power_state_interval` in Ironic modes (absent before 2026-12-01, session 18: 10 s). */
  ironicPowerSyncIntervalSeconds?: number;
  /** `--rounds` when above 1. */
  rounds?: number;
}

/** A phase in one round of `--rounds`: its time and Ironic's CPU seconds in it. */
export interface RoundPhase {
  seconds: number;
  ironicCpuSeconds?: number;
  /** Operator runs: seconds / the same round's floor seconds. */
  ratioToFloor?: number;
}

/** One round of `--rounds`: the floor, then each operator run, on the same stack. */
export interface RoundResult {
  floor?: Record<PhaseName, RoundPhase>;
  runs: Array<{ label: string; phases: Record<PhaseName, RoundPhase> }>;
}

export interface RoundsSummary {
  rounds: RoundResult[];
  /** Per operator run (by label) and phase, the median of the rounds' ratios to their floor. */
  medianRatios: Array<{ label: string; phases: Partial<Record<PhaseName, number>> }>;
}

export interface BenchReport {
  schema: 'metal3-ts-bench/v1';
  startedAt: string;
  finishedAt: string;
  machine: Machine;
  settings: BenchSettings;
  /** With `--rounds`: the first round's floor and runs; `rounds` has every round's times. */
  floor?: FloorResult;
  runs: OperatorRun[];
  rounds?: RoundsSummary;
  /** Failures and anything else a reader of the figures must know. */
  notes: string[];
}
