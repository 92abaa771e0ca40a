// The real operator (operator/main.ts) as its own process, configured for one benchmark run,
// with its metrics on a known loopback port so phases can be cut by scraping it.
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildRuntimeEntries, builtEntryPath } from '../../../hack/build/index.ts';
import { OPERATOR_NODE_FLAGS, OPERATOR_PROCESS_ENV } from '../../../operator/node-flags.ts';
import { freePorts } from '../../../hack/stack/ports.ts';
import { isAlive, startProcess, stopProcess, waitUntil } from '../../../hack/stack/processes.ts';
import type { TrackedProcess } from '../../../hack/stack/processes.ts';
import type { StackEnv } from '../../../hack/stack/state.ts';
import type { BenchMode } from '../report/types.ts';

export interface BenchOperatorOptions {
  env: StackEnv;
  mode: BenchMode;
  namespace: string;
  label: string;
  poll: { shortMs: number; longMs: number };
  concurrency: number;
  provisioningLimit: number;
  logDir: string;
  /** Where the operator writes a heap snapshot on SIGUSR2; none when unset. */
  heapSnapshotDir?: string;
}

export interface BenchOperator {
  process: TrackedProcess;
  metricsUrl: string;
  alive(): boolean;
  stop(): Promise<void>;
  /** Writes a heap snapshot (needs heapSnapshotDir) and resolves to its path. */
  heapSnapshot(): Promise<string>;
}

/**
 * The operator's own flags, then BENCH_OPERATOR_NODE_FLAGS to investigate or compare a run (e.g.
 * '--cpu-prof --cpu-prof-dir=/tmp/prof'; a later V8 flag wins); the report records them.
 */
export function benchOperatorNodeFlags(): string[] {
  return [...OPERATOR_NODE_FLAGS, ...(process.env.BENCH_OPERATOR_NODE_FLAGS ?? '').split(' ').filter(Boolean)];
}

export async function startBenchOperator(options: BenchOperatorOptions): Promise<BenchOperator> {
  const { env } = options;
  const [metricsPort, healthPort] = (await freePorts(2)) as [number, number];
  mkdirSync(options.logDir, { recursive: true });
  // The JavaScript the image runs (deploy/images/operator.Dockerfile), fresh from the sources.
  await buildRuntimeEntries();
  const process_ = startProcess({
    name: 'bench-operator',
    command: process.execPath,
    args: [
      '--disable-warning=ExperimentalWarning',
      ...(options.heapSnapshotDir ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${options.heapSnapshotDir}`] : []),
      ...benchOperatorNodeFlags(),
      builtEntryPath('operator/main.ts'),
    ],
    env: {
      ...OPERATOR_PROCESS_ENV,
      KUBECONFIG: env.kubeconfig,
      PROVISIONER: options.mode === 'fixture' ? 'fixture' : 'ironic',
      IRONIC_ENDPOINT: env.ironicUrl,
      DEPLOY_KERNEL_URL: `${env.artifactsUrl}/ipa.kernel`,
      DEPLOY_RAMDISK_URL: `${env.artifactsUrl}/ipa.initramfs`,
      DEPLOY_ISO_URL: `${env.artifactsUrl}/ipa.iso`,
      WATCH_NAMESPACE: options.namespace,
      METRICS_BIND_ADDRESS: `127.0.0.1:${metricsPort}`,
      METRICS_SECURE: 'false',
      HEALTH_PROBE_BIND_ADDRESS: `127.0.0.1:${healthPort}`,
      // No webhook is registered for the benchmark; without a certificate the server would keep /readyz failing.
      WEBHOOK_PORT: '0',
      // info keeps logging out of the figures; BENCH_OPERATOR_LOG_LEVEL=debug to investigate a run.
      LOG_LEVEL: process.env.BENCH_OPERATOR_LOG_LEVEL ?? 'info',
      BMO_CONCURRENCY: String(options.concurrency),
      PROVISIONING_LIMIT: String(options.provisioningLimit),
      IRONIC_POLL_SHORT: `${options.poll.shortMs}ms`,
      IRONIC_POLL_LONG: `${options.poll.longMs}ms`,
      ALLOW_FAKE_HARDWARE: options.mode === 'fake-hardware' ? 'true' : 'false',
    },
    logPath: join(options.logDir, `bench-operator-${options.label.replace(/[^a-zA-Z0-9.-]+/g, '-').replace(/-+$/, '')}.log`),
  });
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  try {
    await waitUntil(async () => (await fetch(`http://127.0.0.1:${healthPort}/readyz`)).ok, {
      what: 'the benchmarked operator', timeoutMs: 60_000, process: process_,
    });
  } catch (error) {
    await stopProcess(process_);
    throw error;
  }
  return {
    process: process_,
    metricsUrl,
    alive: () => isAlive(process_.pid),
    stop: () => stopProcess(process_, { graceMs: 20_000 }),
    heapSnapshot: () => takeHeapSnapshot(process_.pid, options.heapSnapshotDir, metricsUrl),
  };
}

/** Signals the operator to write a snapshot; V8 blocks the process while writing, so /metrics answering again means it is done. */
async function takeHeapSnapshot(pid: number, dir: string | undefined, metricsUrl: string): Promise<string> {
  if (!dir) throw new Error('the operator was started without a heap snapshot directory');
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  let written: string | undefined;
  await waitUntil(async () => {
    written = readdirSync(dir).find((name) => name.endsWith('.heapsnapshot') && !before.has(name));
    if (!written) return false;
    const size = statSync(join(dir, written)).size;
    return size > 0 && (await fetch(metricsUrl)).ok && statSync(join(dir, written)).size === size;
  }, { what: 'the heap snapshot', timeoutMs: 600_000 });
  return join(dir, written!);
}
