// One operator run: start the operator, create the hosts, give them an image, take it back,
// cutting each phase with a /metrics scrape and a /proc reading; then remove everything.
import { setTimeout as sleep } from 'node:timers/promises';
import type { StackEnv } from '../../../hack/stack/state.ts';
import { BareMetalHostResource } from '../../../operator/api/baremetalhost.ts';
import { KubeClient, SecretResource, loadKubeConfig } from '../../../operator/runtime/index.ts';
import type { KubeTransport } from '../../../operator/runtime/index.ts';
import type { BenchHost } from '../bench-hosts.ts';
import { createIronicHttp } from '../floor/ironic-http.ts';
import { startInspectionResponder } from '../inspection-responder.ts';
import { counterTotals, diffTotals, sumTotals } from '../metrics/counter-totals.ts';
import { readHeapSnapshot } from '../metrics/heap-snapshot.ts';
import type { Totals } from '../metrics/counter-totals.ts';
import { readProcessStats } from '../metrics/process-stats.ts';
import type { ProcessStats } from '../metrics/process-stats.ts';
import { scrapeMetrics } from '../metrics/scrape.ts';
import { stackComponents, stackCpuSeconds } from '../metrics/stack-cpu.ts';
import type { MeasuredDeletion, MeasuredOperatorPhase, MeasuredOperatorRun } from '../report/assemble.ts';
import { PHASES } from '../report/types.ts';
import type { BenchMode, PhaseName } from '../report/types.ts';
import { bareMetalHost, bmcSecret, deprovisionPatch, provisionPatch, userDataSecret } from './host-objects.ts';
import { startHostTracker } from './host-tracker.ts';
import type { HostTracker } from './host-tracker.ts';
import { createAll, deleteAll, ensureNamespace, patchAll, purgeNamespace } from './namespace-objects.ts';
import { startBenchOperator } from './operator-process.ts';
import type { BenchOperator } from './operator-process.ts';

export interface OperatorScenarioOptions {
  env: StackEnv;
  mode: BenchMode;
  hosts: readonly BenchHost[];
  namespace: string;
  label: string;
  poll: { shortMs: number; longMs: number };
  concurrency: number;
  provisioningLimit: number;
  phaseTimeoutMs: number;
  /** How often the fake-hardware inspection responder looks for nodes (same as for the floor). */
  responderPollMs: number;
  /** How long deleting the hosts may take before finalizers are stripped. */
  cleanupTimeoutMs: number;
  logDir: string;
  /** Snapshot the operator's heap once every host is provisioned. */
  heapSnapshot: boolean;
  log: (line: string) => void;
}

interface Cut {
  ironic: Totals;
  ironicOpenSeconds: Totals;
  kube: Totals;
  connections: number;
  heapUsedBytes: number;
  stats: ProcessStats;
  stackCpu: Totals;
}

const TARGET: Record<PhaseName, string> = { register: 'available', provision: 'provisioned', deprovision: 'available' };

async function cut(operator: BenchOperator, stack: ReadonlyArray<{ name: string; pid: number }>): Promise<Cut> {
  const samples = await scrapeMetrics(operator.metricsUrl);
  return {
    ironic: counterTotals(samples, { name: 'ironic_client_requests_total', keyLabels: ['method', 'route'] }),
    ironicOpenSeconds: counterTotals(samples, { name: 'ironic_client_request_duration_seconds_sum', keyLabels: ['method', 'route'] }),
    kube: counterTotals(samples, { name: 'rest_client_requests_by_resource_total', keyLabels: ['verb', 'resource'] }),
    connections: sumTotals(counterTotals(samples, { name: 'rest_client_connections_opened_total', keyLabels: [] })),
    heapUsedBytes: samples.find((sample) => sample.name === 'nodejs_heap_size_used_bytes')?.value ?? 0,
    stats: readProcessStats(operator.process.pid),
    stackCpu: stackCpuSeconds(stack),
  };
}

function phaseAction(options: OperatorScenarioOptions, transport: KubeTransport, phase: PhaseName): () => Promise<void> {
  const { namespace, hosts, env } = options;
  const names = hosts.map((host) => host.name);
  switch (phase) {
    case 'register':
      return () => createAll(transport, BareMetalHostResource, hosts.map((host) => bareMetalHost({ namespace, host })));
    case 'provision':
      return () => patchAll(transport, BareMetalHostResource, { namespace, names, patch: provisionPatch({ env, namespace }) });
    case 'deprovision':
      return () => patchAll(transport, BareMetalHostResource, { namespace, names, patch: deprovisionPatch });
  }
}

async function runPhase(options: OperatorScenarioOptions, context: { transport: KubeTransport; operator: BenchOperator; tracker: HostTracker }, phase: PhaseName): Promise<MeasuredOperatorPhase> {
  const names = options.hosts.map((host) => host.name);
  const stack = stackComponents(options.env.stateDir);
  const before = await cut(context.operator, stack);
  const startMs = Date.now();
  await phaseAction(options, context.transport, phase)();
  const completions = await context.tracker.waitForState(names, TARGET[phase], { sinceMs: startMs, deadlineMs: startMs + options.phaseTimeoutMs });
  const endMs = Date.now();
  const after = await cut(context.operator, stack);
  return {
    startMs,
    endMs,
    completions,
    visits: names.map((name) => context.tracker.visitsDuring(name, { startMs, endMs })),
    ...(options.mode === 'fixture' ? {} : { ironic: diffTotals(after.ironic, before.ironic), ironicOpenSeconds: diffTotals(after.ironicOpenSeconds, before.ironicOpenSeconds) }),
    kube: diffTotals(after.kube, before.kube),
    connectionsOpened: after.connections - before.connections,
    cpuSeconds: after.stats.cpuSeconds - before.stats.cpuSeconds,
    rssKiB: after.stats.rssKiB,
    heapUsedBytes: after.heapUsedBytes,
    stackCpu: diffTotals(after.stackCpu, before.stackCpu),
  };
}

/** Deletes the hosts through the operator (it removes their Ironic nodes), timed like a phase. */
async function deleteHosts(options: OperatorScenarioOptions, transport: KubeTransport, context: { tracker: HostTracker; operator: BenchOperator }): Promise<{ deletion: MeasuredDeletion; note?: string }> {
  const { tracker, operator } = context;
  const stack = stackComponents(options.env.stateDir);
  const before = await cut(operator, stack);
  const startMs = Date.now();
  await deleteAll(transport, BareMetalHostResource, { namespace: options.namespace, names: options.hosts.map((host) => host.name) });
  const deadline = Date.now() + options.cleanupTimeoutMs;
  while (tracker.present() > 0 && Date.now() < deadline) await sleep(200);
  const endMs = Date.now();
  const after = await cut(operator, stack);
  const left = tracker.present();
  return {
    deletion: {
      hosts: options.hosts.length,
      deleted: options.hosts.length - left,
      seconds: (endMs - startMs) / 1000,
      kube: diffTotals(after.kube, before.kube),
      connectionsOpened: after.connections - before.connections,
      cpuSeconds: after.stats.cpuSeconds - before.stats.cpuSeconds,
      ...(options.mode === 'fixture' ? {} : { ironic: diffTotals(after.ironic, before.ironic) }),
    },
    ...(left > 0 ? { note: `${options.label}: ${left} hosts were not deleted by the operator within ${options.cleanupTimeoutMs / 1000} s; finalizers stripped` } : {}),
  };
}

export async function runOperatorScenario(options: OperatorScenarioOptions): Promise<{ measured: MeasuredOperatorRun; notes: string[] }> {
  const { env, namespace, hosts, log } = options;
  const transport = new KubeClient(loadKubeConfig(env.kubeconfig), { userAgent: 'metal3-ts-bench' });
  await ensureNamespace(transport, namespace);
  await createAll(transport, SecretResource, [userDataSecret(namespace), ...hosts.map((host) => bmcSecret({ env, namespace, host }))]);
  const tracker = await startHostTracker({ transport, namespace });
  const notes: string[] = [];
  let operator: BenchOperator | undefined;
  const macs = new Map(hosts.map((host) => [`${namespace}~${host.name}`, host.bootMac]));
  const responder = options.mode === 'fake-hardware'
    ? startInspectionResponder({
        http: createIronicHttp({ url: env.ironicUrl }), ironicUrl: env.ironicUrl, intervalMs: options.responderPollMs,
        macFor: (name) => macs.get(name), log,
      })
    : undefined;
  try {
    operator = await startBenchOperator({ ...options, ...(options.heapSnapshot ? { heapSnapshotDir: options.logDir } : {}) });
    log(`operator ${options.label}: pid ${operator.process.pid}, log ${operator.process.logPath}`);
    const phases = {} as Record<PhaseName, MeasuredOperatorPhase>;
    let heap: MeasuredOperatorRun['heap'];
    for (const phase of PHASES) {
      log(`operator ${options.label}: ${phase} of ${hosts.length} hosts`);
      phases[phase] = await runPhase(options, { transport, operator, tracker }, phase);
      const done = phases[phase].completions.filter((at) => at !== undefined).length;
      log(`operator ${options.label}: ${phase} ${done}/${hosts.length} in ${((phases[phase].endMs - phases[phase].startMs) / 1000).toFixed(1)} s`);
      if (!operator.alive()) throw new Error(`the operator exited during ${phase}; see ${operator.process.logPath}`);
      if (phase === 'provision' && options.heapSnapshot) {
        const path = await operator.heapSnapshot();
        heap = { afterPhase: phase, ...readHeapSnapshot(path) };
        log(`operator ${options.label}: heap snapshot ${path}: ${heap.totalMiB} MiB in ${heap.nodes} objects`);
      }
    }
    const stats = readProcessStats(operator.process.pid);
    const stuck = tracker.lastErrors(hosts.map((host) => host.name));
    for (const [name, error] of stuck) notes.push(`${options.label}: ${name} reported ${error}`);
    log(`operator ${options.label}: deleting ${hosts.length} hosts`);
    const { deletion, note } = await deleteHosts(options, transport, { tracker, operator });
    log(`operator ${options.label}: deleted ${deletion.deleted}/${hosts.length} in ${deletion.seconds.toFixed(1)} s`);
    if (note) notes.push(note);
    // Peak over the whole life, deletion included.
    const peakRssKiB = readProcessStats(operator.process.pid).peakRssKiB;
    return {
      measured: { label: options.label, poll: options.poll, phases, deletion, cpuSeconds: stats.cpuSeconds + deletion.cpuSeconds, peakRssKiB, ...(heap ? { heap } : {}) },
      notes,
    };
  } finally {
    await operator?.stop();
    await responder?.stop();
    await tracker.stop();
    await purgeNamespace(transport, namespace).catch((error: unknown) => log(`cleanup of ${namespace}: ${(error as Error).message}`));
  }
}
