// `npm run bench -- --hosts N [--mode redfish|fake-hardware|fixture] [--out dir] ...`
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../../hack/stack/paths.ts';
import { parseDuration } from '../../operator/runtime/duration.ts';
import { defaultConcurrency } from '../../operator/settings.ts';
import type { BenchMode } from './report/types.ts';

export interface PollVariant {
  shortMs: number;
  longMs: number;
}

export interface BenchOptions {
  hosts: number;
  mode: BenchMode;
  outDir: string;
  stateDir: string;
  /** One operator run per variant, one after the other, on the same hardware. */
  polls: PollVariant[];
  concurrency: number;
  provisioningLimit: number;
  /** How often the floor (and the fake-hardware inspection responder) looks at Ironic. */
  floorPollMs: number;
  /** Requests the floor keeps open at once. */
  floorInFlight: number;
  phaseTimeoutMs: number;
  keepStack: boolean;
  /** Take a heap snapshot of the operator once all hosts are provisioned and summarise it. */
  heapSnapshot: boolean;
  /**
   * Floor and operator runs, taken in turn this many times on one stack: Ironic's CPU for the same
   * work drifts between minutes by up to half, so a ratio from one pair can mislead.
   */
  rounds: number;
}

export const USAGE = `npm run bench -- --hosts N [options]
  --mode redfish|fake-hardware|fixture   emulated hardware (default redfish; fixture: no Ironic, no floor)
  --poll SHORT/LONG                      operator Ironic poll intervals, repeatable (default 3s/10s and 1s/2s)
  --concurrency N                        BMO_CONCURRENCY (default: BMO's, CPUs clamped to 2..8)
  --provisioning-limit N                 PROVISIONING_LIMIT (default: max(20, hosts))
  --floor-poll DURATION                  floor's node-list interval (default 1s)
  --floor-in-flight N                    Ironic requests the floor keeps open at once (default 4)
  --phase-timeout DURATION               per phase (default 30m)
  --out DIR                              report directory (default test/bench/results)
  --state-dir DIR                        stack state (default /tmp/metal3-ts-bench-stack)
  --keep-stack                           leave the stack running
  --heap-snapshot                        snapshot the operator's heap when all hosts are provisioned (report: heap breakdown)
  --rounds N                             the floor and the operator runs in turn N times (default 1; report: each round's ratios and their median)`;

const MODES: readonly BenchMode[] = ['redfish', 'fake-hardware', 'fixture'];

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1) throw new Error(`${flag} must be a positive integer, got ${JSON.stringify(text)}`);
  return value;
}

export function parsePoll(text: string): PollVariant {
  const [short, long, extra] = text.split('/');
  if (!short || !long || extra !== undefined) throw new Error(`--poll wants SHORT/LONG like 3s/10s, got ${JSON.stringify(text)}`);
  return { shortMs: parseDuration(short), longMs: parseDuration(long) };
}

export function pollLabel(poll: PollVariant): string {
  const seconds = (ms: number) => `${ms / 1000}s`;
  const label = `poll ${seconds(poll.shortMs)}/${seconds(poll.longMs)}`;
  return poll.shortMs === 3000 && poll.longMs === 10000 ? `${label} (BMO)` : label;
}

export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      hosts: { type: 'string' },
      mode: { type: 'string', default: 'redfish' },
      poll: { type: 'string', multiple: true },
      concurrency: { type: 'string' },
      'provisioning-limit': { type: 'string' },
      'floor-poll': { type: 'string', default: '1s' },
      'floor-in-flight': { type: 'string', default: '4' },
      'phase-timeout': { type: 'string', default: '30m' },
      out: { type: 'string' },
      'state-dir': { type: 'string' },
      'keep-stack': { type: 'boolean', default: false },
      'heap-snapshot': { type: 'boolean', default: false },
      rounds: { type: 'string', default: '1' },
    },
    strict: true,
  });
  if (values.hosts === undefined) throw new Error('--hosts N is required');
  const hosts = positiveInteger('--hosts', values.hosts);
  const mode = values.mode as BenchMode;
  if (!MODES.includes(mode)) throw new Error(`--mode must be one of ${MODES.join(', ')}`);
  return {
    hosts,
    mode,
    outDir: values.out ?? join(repoRoot, 'test', 'bench', 'results'),
    stateDir: values['state-dir'] ?? '/tmp/metal3-ts-bench-stack',
    polls: (values.poll ?? ['3s/10s', '1s/2s']).map(parsePoll),
    concurrency: values.concurrency === undefined ? defaultConcurrency() : positiveInteger('--concurrency', values.concurrency),
    provisioningLimit: values['provisioning-limit'] === undefined ? Math.max(20, hosts) : positiveInteger('--provisioning-limit', values['provisioning-limit']),
    floorPollMs: parseDuration(values['floor-poll']),
    floorInFlight: positiveInteger('--floor-in-flight', values['floor-in-flight']),
    phaseTimeoutMs: parseDuration(values['phase-timeout']),
    keepStack: values['keep-stack'],
    heapSnapshot: values['heap-snapshot'],
    rounds: positiveInteger('--rounds', values.rounds),
  };
}
