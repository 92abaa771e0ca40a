import { spawn } from 'node:child_process';
import { buildClusterApi } from './build.ts';

export interface ClusterctlRun {
  /** What it printed so far, stdout and stderr interleaved as they came. */
  output(): string;
  /** Resolves when it ends (never rejects): its exit code and everything it printed. */
  done: Promise<{ code: number; output: string }>;
}

/**
 * The pinned clusterctl, started. Its check for a newer release (a request to GitHub after
 * every command) is turned off: the stack and its tests only talk to loopback.
 */
export async function startClusterctl(args: string[]): Promise<ClusterctlRun> {
  const { clusterctl } = await buildClusterApi();
  const child = spawn(clusterctl, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CLUSTERCTL_DISABLE_VERSIONCHECK: 'true' },
  });
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const done = new Promise<{ code: number; output: string }>((resolve) => {
    child.on('error', (error) => resolve({ code: -1, output: `${output}${error.message}` }));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
  return { output: () => output, done };
}

/** Runs clusterctl to the end; rejects with its output when it fails. */
export async function runClusterctl(args: string[]): Promise<string> {
  const { code, output } = await (await startClusterctl(args)).done;
  if (code !== 0) throw new Error(`clusterctl ${args.join(' ')} exited with ${code}:\n${output}`);
  return output;
}
