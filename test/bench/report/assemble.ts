// Turns what a run measured (times, counter diffs, /proc readings) into report figures.
import { perHost, round2, sumTotals } from '../metrics/counter-totals.ts';
import type { Totals } from '../metrics/counter-totals.ts';
import type { HeapBreakdown } from '../metrics/heap-snapshot.ts';
import { bmoEstimate } from './bmo-estimate.ts';
import type { StateVisit } from './bmo-estimate.ts';
import { phaseTiming, ratioToFloor } from './phase-timing.ts';
import { PHASES } from './types.ts';
import type { FloorResult, OperatorRun, PhaseName, PhaseTiming, RequestCounts } from './types.ts';

export interface MeasuredPhase {
  startMs: number;
  endMs: number;
  completions: ReadonlyArray<number | undefined>;
}

export interface MeasuredFloor {
  pollMs: number;
  phases: Record<PhaseName, MeasuredPhase & { ironic: Totals; ironicOpenSeconds?: Totals; stackCpu?: Totals }>;
}

export interface MeasuredOperatorPhase extends MeasuredPhase {
  /** Per host, the BareMetalHost states seen during the phase (the one it started in first). */
  visits: ReadonlyArray<readonly StateVisit[]>;
  ironic?: Totals;
  /** Seconds the operator's Ironic requests were open, summed over requests, by `METHOD route`. */
  ironicOpenSeconds?: Totals;
  kube: Totals;
  connectionsOpened: number;
  cpuSeconds: number;
  rssKiB: number;
  heapUsedBytes: number;
  /** CPU seconds of each stack process tree (Ironic, kube-apiserver, etcd…) in the phase. */
  stackCpu?: Totals;
}

export interface MeasuredDeletion {
  hosts: number;
  deleted: number;
  seconds: number;
  ironic?: Totals;
  kube: Totals;
  connectionsOpened: number;
  cpuSeconds: number;
}

/** Ironic's "list every node" requests among `totals` (keys are `METHOD route`). */
export function nodeLists(totals: Totals): number {
  return totals['GET /v1/nodes'] ?? 0;
}

export interface MeasuredOperatorRun {
  label: string;
  poll: { shortMs: number; longMs: number };
  phases: Record<PhaseName, MeasuredOperatorPhase>;
  deletion?: MeasuredDeletion;
  heap?: HeapBreakdown & { afterPhase: PhaseName };
  cpuSeconds: number;
  peakRssKiB: number;
}

export function requestCounts(totals: Totals, hosts: number): RequestCounts {
  const total = sumTotals(totals);
  return { total, perHost: hosts > 0 ? round2(total / hosts) : 0, byKeyPerHost: hosts > 0 ? perHost(totals, hosts) : {} };
}

/**
 * Requests open at Ironic on average over the phase (their summed open time over the phase's
 * length), and each route's open time per host: where a client's time waiting on Ironic goes.
 */
function requestsOpen(openSeconds: Totals | undefined, timing: PhaseTiming): { ironicRequestsOpen?: number; ironicSecondsPerHost?: Totals } {
  if (openSeconds === undefined || timing.seconds <= 0) return {};
  return {
    ironicRequestsOpen: round2(sumTotals(openSeconds) / timing.seconds),
    ...(timing.hosts > 0 ? { ironicSecondsPerHost: perHost(openSeconds, timing.hosts) } : {}),
  };
}

function roundTotals(totals: Totals): Totals {
  return Object.fromEntries(Object.entries(totals).map(([key, value]) => [key, round2(value)]));
}

export function mapPhases<T>(make: (phase: PhaseName) => T): Record<PhaseName, T> {
  return Object.fromEntries(PHASES.map((phase) => [phase, make(phase)])) as Record<PhaseName, T>;
}

export function floorResult(measured: MeasuredFloor): FloorResult {
  return {
    pollMs: measured.pollMs,
    phases: mapPhases((phase) => {
      const raw = measured.phases[phase];
      const timing = phaseTiming(raw);
      return {
        ...timing,
        ironic: requestCounts(raw.ironic, raw.completions.length),
        ...requestsOpen(raw.ironicOpenSeconds, timing),
        ...(raw.stackCpu ? { stackCpuSeconds: roundTotals(raw.stackCpu) } : {}),
      };
    }),
  };
}

export function operatorRun(measured: MeasuredOperatorRun, floor?: FloorResult): OperatorRun {
  const phases = mapPhases((phase) => {
    const raw = measured.phases[phase];
    const hosts = raw.completions.length;
    const timing = phaseTiming(raw);
    const ratio = ratioToFloor(timing, floor?.phases[phase]);
    return {
      ...timing,
      ...(raw.ironic ? { ironic: requestCounts(raw.ironic, hosts), ironicNodeLists: nodeLists(raw.ironic) } : {}),
      ...requestsOpen(raw.ironicOpenSeconds, timing),
      kube: requestCounts(raw.kube, hosts),
      kubeConnectionsOpened: raw.connectionsOpened ?? 0,
      cpuSeconds: round2(raw.cpuSeconds),
      rssMiBAtEnd: round2(raw.rssKiB / 1024),
      heapUsedMiBAtEnd: round2(raw.heapUsedBytes / 2 ** 20),
      ...(raw.stackCpu ? { stackCpuSeconds: roundTotals(raw.stackCpu) } : {}),
      ...(ratio === undefined ? {} : { ratioToFloor: ratio }),
      ...(raw.ironic ? { bmo: bmoEstimate({ phase, hosts: raw.visits, startMs: raw.startMs, endMs: raw.endMs }) } : {}),
    };
  });
  const sum = (pick: (phase: PhaseName) => number | undefined) => round2(PHASES.reduce((total, phase) => total + (pick(phase) ?? 0), 0));
  const withIronic = PHASES.every((phase) => phases[phase].ironic !== undefined);
  const deletion = measured.deletion;
  return {
    label: measured.label,
    poll: measured.poll,
    phases,
    ...(deletion
      ? {
          deletion: {
            hosts: deletion.hosts,
            deleted: deletion.deleted,
            seconds: round2(deletion.seconds),
            hostsPerMinute: deletion.seconds > 0 ? round2((deletion.deleted / deletion.seconds) * 60) : 0,
            ...(deletion.ironic ? { ironic: requestCounts(deletion.ironic, deletion.hosts) } : {}),
            kube: requestCounts(deletion.kube, deletion.hosts),
            kubeConnectionsOpened: deletion.connectionsOpened,
            cpuSeconds: round2(deletion.cpuSeconds),
          },
        }
      : {}),
    ...(measured.heap ? { heap: measured.heap } : {}),
    lifecycle: {
      ...(withIronic
        ? {
            ironicRequestsPerHost: sum((phase) => phases[phase].ironic?.perHost),
            bmoIronicRequestsPerHost: sum((phase) => phases[phase].bmo?.requestsPerHost),
          }
        : {}),
      kubeRequestsPerHost: sum((phase) => phases[phase].kube.perHost),
      cpuSeconds: round2(measured.cpuSeconds),
      peakRssMiB: round2(measured.peakRssKiB / 1024),
    },
  };
}
