// One benchmark run: the stack (started here unless given), the CRDs, the floor, then one
// operator run per poll variant, all on the same hardware one after the other (`--rounds` times),
// and the report.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { kubectl } from '../../hack/dev/kubectl.ts';
import { repoRoot } from '../../hack/stack/paths.ts';
import { IRONIC_DEFAULT_POWER_SYNC_SECONDS } from '../../hack/stack/ironic-config.ts';
import { stackDown, stackUp } from '../../hack/stack/stack.ts';
import type { StackEnv } from '../../hack/stack/state.ts';
import { OPERATOR_PROCESS_ENV } from '../../operator/node-flags.ts';
import { benchHosts } from './bench-hosts.ts';
import { runFloor } from './floor/run-floor.ts';
import type { BenchOptions } from './options.ts';
import { pollLabel } from './options.ts';
import { benchOperatorNodeFlags } from './operator/operator-process.ts';
import { runOperatorScenario } from './operator/run-operator.ts';
import { floorResult, operatorRun } from './report/assemble.ts';
import { describeMachine } from './report/machine.ts';
import { roundResult, summariseRounds } from './report/rounds.ts';
import type { BenchReport, FloorResult, OperatorRun, RoundResult } from './report/types.ts';

export interface BenchDeps {
  /** A running stack to use instead of starting one (the CI smoke test shares jest's). */
  env?: StackEnv;
  log: (line: string) => void;
}

/**
 * The bench's Ironic reads every node's power as often as Metal3's ironic-image has it do (Ironic's
 * default), not every 10 s as the tests' stack does: at 300 nodes that sweep alone took 13-38 % of
 * the time of Ironic's one busy process, for the floor and the operator alike, and nothing measured here
 * needs it (every power change in a run is asked for through Ironic, which records it).
 */
export const BENCH_IRONIC_POWER_SYNC_SECONDS = IRONIC_DEFAULT_POWER_SYNC_SECONDS;

/** Emulated systems the stack needs: one per host with Redfish, one (unused) otherwise. */
export function stackSystems(options: Pick<BenchOptions, 'mode' | 'hosts'>): number {
  return options.mode === 'redfish' ? options.hosts : 1;
}

async function withStack<T>(options: BenchOptions, deps: BenchDeps, body: (env: StackEnv) => Promise<T>): Promise<T> {
  if (deps.env) return body(deps.env);
  await stackDown(options.stateDir);
  deps.log(`bench: starting a stack with ${stackSystems(options)} emulated systems in ${options.stateDir}`);
  const env = await stackUp({
    stateDir: options.stateDir, systems: stackSystems(options), ironicBasicAuth: false, bmcBasicAuth: true,
    ironicPowerSyncIntervalSeconds: BENCH_IRONIC_POWER_SYNC_SECONDS,
    log: (line) => deps.log(`stack: ${line}`),
  });
  try {
    return await body(env);
  } finally {
    if (!options.keepStack) await stackDown(options.stateDir);
  }
}

/** The floor (Ironic modes), then one operator run per poll variant. */
async function runRound(
  options: BenchOptions,
  deps: BenchDeps,
  context: { env: StackEnv; logDir: string; runId: string; notes: string[] },
): Promise<{ floor: FloorResult | undefined; runs: OperatorRun[] }> {
  const { env, logDir, runId, notes } = context;
  let floor: FloorResult | undefined;
  if (options.mode !== 'fixture') {
    const result = await runFloor({
      mode: options.mode, env, hosts: benchHosts({ mode: options.mode, count: options.hosts, env, role: 'floor' }),
      pollMs: options.floorPollMs, inFlight: options.floorInFlight, namePrefix: `bench-floor-${runId}`, phaseTimeoutMs: options.phaseTimeoutMs, log: deps.log,
    });
    floor = floorResult(result.measured);
    notes.push(...result.notes);
  }
  const runs: OperatorRun[] = [];
  // Poll intervals only matter to the Ironic provisioner: the fixture gets one run.
  const polls = options.mode === 'fixture' ? options.polls.slice(0, 1) : options.polls;
  for (const [index, poll] of polls.entries()) {
    const result = await runOperatorScenario({
      env, mode: options.mode, hosts: benchHosts({ mode: options.mode, count: options.hosts, env, role: 'operator' }),
      namespace: `bench-${runId}-${index + 1}`, label: options.mode === 'fixture' ? 'fixture provisioner' : pollLabel(poll), poll,
      concurrency: options.concurrency, provisioningLimit: options.provisioningLimit, phaseTimeoutMs: options.phaseTimeoutMs,
      responderPollMs: options.floorPollMs, cleanupTimeoutMs: Math.max(120_000, options.hosts * 2_000), logDir, log: deps.log, heapSnapshot: options.heapSnapshot,
    });
    runs.push(operatorRun(result.measured, floor));
    notes.push(...result.notes);
  }
  return { floor, runs };
}

export async function runBench(options: BenchOptions, deps: BenchDeps): Promise<BenchReport> {
  const startedAt = new Date().toISOString();
  const machine = describeMachine();
  const runId = randomBytes(3).toString('hex');
  const notes: string[] = [];
  return withStack(options, deps, async (env) => {
    await kubectl(env, ['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
    await kubectl(env, ['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
    const logDir = join(env.stateDir, 'logs');
    const round = async (index: number) => {
      const results = await runRound(options, deps, { env, logDir, runId: options.rounds > 1 ? `${runId}-r${index}` : runId, notes });
      if (options.rounds > 1) deps.log(`bench: round ${index} of ${options.rounds} done`);
      return results;
    };
    const { floor, runs } = await round(1);
    const rounds: RoundResult[] = [roundResult(floor, runs)];
    for (let index = 2; index <= options.rounds; index += 1) {
      const later = await round(index);
      rounds.push(roundResult(later.floor, later.runs));
    }
    return {
      schema: 'metal3-ts-bench/v1',
      startedAt,
      finishedAt: new Date().toISOString(),
      machine,
      settings: {
        mode: options.mode, hosts: options.hosts, concurrency: options.concurrency, provisioningLimit: options.provisioningLimit,
        floorPollMs: options.floorPollMs, floorInFlight: options.floorInFlight, phaseTimeoutMs: options.phaseTimeoutMs,
        operatorNodeFlags: benchOperatorNodeFlags(),
        operatorProcessEnv: { ...OPERATOR_PROCESS_ENV },
        ...(options.mode !== 'fixture' ? { ironicPowerSyncIntervalSeconds: BENCH_IRONIC_POWER_SYNC_SECONDS } : {}),
        ...(options.rounds > 1 ? { rounds: options.rounds } : {}),
      },
      ...(floor ? { floor } : {}),
      runs,
      ...(options.rounds > 1 ? { rounds: summariseRounds(rounds) } : {}),
      notes,
    };
  });
}
