import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { WorkQueueMetrics } from './workqueue.ts';

/** controller-runtime's `result` label values for `controller_runtime_reconcile_total`. */
export type ReconcileOutcome = 'success' | 'error' | 'requeue' | 'requeue_after';

export interface ControllerMetrics {
  reconciled(outcome: ReconcileOutcome, seconds: number): void;
  failed(options: { terminal: boolean }): void;
  workerStarted(): void;
  workerStopped(): void;
}

/** Metric families with controller-runtime / client-go names, registered on an injected registry. */
export interface RuntimeMetrics {
  readonly registry: Registry;
  controller(name: string, maxConcurrentReconciles: number): ControllerMetrics;
  workQueue(name: string): WorkQueueMetrics;
  leaderElection(name: string): { setLeading(leading: boolean): void };
}

// controller-runtime's reconcile_time buckets (5 ms … 60 s).
const RECONCILE_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75,
  2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];
// client-go's workqueue buckets: ExponentialBuckets(10ns, 10, 12).
const QUEUE_BUCKETS = Array.from({ length: 12 }, (_, i) => 1e-8 * 10 ** i);

/**
 * Registers (or, when the registry already has them, reuses) the runtime's metric families.
 * Reuse matters because several managers in one test process may share a registry.
 */
export function createRuntimeMetrics(registry: Registry): RuntimeMetrics {
  const reuse = <T>(name: string, make: () => T): T => (registry.getSingleMetric(name) as T | undefined) ?? make();
  const registers = [registry];

  const reconcileTotal = reuse(
    'controller_runtime_reconcile_total',
    () =>
      new Counter({
        name: 'controller_runtime_reconcile_total',
        help: 'Total number of reconciliations per controller',
        labelNames: ['controller', 'result'] as const,
        registers,
      }),
  );
  const reconcileErrors = reuse(
    'controller_runtime_reconcile_errors_total',
    () =>
      new Counter({
        name: 'controller_runtime_reconcile_errors_total',
        help: 'Total number of reconciliation errors per controller',
        labelNames: ['controller'] as const,
        registers,
      }),
  );
  const terminalErrors = reuse(
    'controller_runtime_terminal_reconcile_errors_total',
    () =>
      new Counter({
        name: 'controller_runtime_terminal_reconcile_errors_total',
        help: 'Total number of terminal reconciliation errors per controller',
        labelNames: ['controller'] as const,
        registers,
      }),
  );
  const reconcileTime = reuse(
    'controller_runtime_reconcile_time_seconds',
    () =>
      new Histogram({
        name: 'controller_runtime_reconcile_time_seconds',
        help: 'Length of time per reconciliation per controller',
        labelNames: ['controller'] as const,
        buckets: RECONCILE_BUCKETS,
        registers,
      }),
  );
  const maxConcurrent = reuse(
    'controller_runtime_max_concurrent_reconciles',
    () =>
      new Gauge({
        name: 'controller_runtime_max_concurrent_reconciles',
        help: 'Maximum number of concurrent reconciles per controller',
        labelNames: ['controller'] as const,
        registers,
      }),
  );
  const activeWorkers = reuse(
    'controller_runtime_active_workers',
    () =>
      new Gauge({
        name: 'controller_runtime_active_workers',
        help: 'Number of currently used workers per controller',
        labelNames: ['controller'] as const,
        registers,
      }),
  );
  const depth = reuse(
    'workqueue_depth',
    () => new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames: ['name'] as const, registers }),
  );
  const adds = reuse(
    'workqueue_adds_total',
    () =>
      new Counter({
        name: 'workqueue_adds_total',
        help: 'Total number of adds handled by workqueue',
        labelNames: ['name'] as const,
        registers,
      }),
  );
  const queueDuration = reuse(
    'workqueue_queue_duration_seconds',
    () =>
      new Histogram({
        name: 'workqueue_queue_duration_seconds',
        help: 'How long in seconds an item stays in workqueue before being requested',
        labelNames: ['name'] as const,
        buckets: QUEUE_BUCKETS,
        registers,
      }),
  );
  const workDuration = reuse(
    'workqueue_work_duration_seconds',
    () =>
      new Histogram({
        name: 'workqueue_work_duration_seconds',
        help: 'How long in seconds processing an item from workqueue takes',
        labelNames: ['name'] as const,
        buckets: QUEUE_BUCKETS,
        registers,
      }),
  );
  const retries = reuse(
    'workqueue_retries_total',
    () =>
      new Counter({
        name: 'workqueue_retries_total',
        help: 'Total number of retries handled by workqueue',
        labelNames: ['name'] as const,
        registers,
      }),
  );
  const leaderStatus = reuse(
    'leader_election_master_status',
    () =>
      new Gauge({
        name: 'leader_election_master_status',
        help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master',
        labelNames: ['name'] as const,
        registers,
      }),
  );

  return {
    registry,
    controller(name, maxConcurrentReconciles) {
      // Like controller-runtime, publish zeroes up front so rate() works from the first scrape.
      for (const result of ['success', 'error', 'requeue', 'requeue_after'] as const) {
        reconcileTotal.inc({ controller: name, result }, 0);
      }
      reconcileErrors.inc({ controller: name }, 0);
      terminalErrors.inc({ controller: name }, 0);
      maxConcurrent.set({ controller: name }, maxConcurrentReconciles);
      activeWorkers.set({ controller: name }, 0);
      return {
        reconciled(outcome, seconds) {
          reconcileTotal.inc({ controller: name, result: outcome });
          reconcileTime.observe({ controller: name }, seconds);
        },
        failed({ terminal }) {
          reconcileErrors.inc({ controller: name });
          if (terminal) terminalErrors.inc({ controller: name });
        },
        workerStarted: () => activeWorkers.inc({ controller: name }),
        workerStopped: () => activeWorkers.dec({ controller: name }),
      };
    },
    workQueue(name) {
      depth.set({ name }, 0);
      adds.inc({ name }, 0);
      retries.inc({ name }, 0);
      return {
        added: () => adds.inc({ name }),
        depth: (length) => depth.set({ name }, length),
        started: (waitedMs) => queueDuration.observe({ name }, waitedMs / 1000),
        finished: (workedMs) => workDuration.observe({ name }, workedMs / 1000),
        retried: () => retries.inc({ name }),
      };
    },
    leaderElection(name) {
      return { setLeading: (leading) => leaderStatus.set({ name }, leading ? 1 : 0) };
    },
  };
}
