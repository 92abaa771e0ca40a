import { spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProcessSpec {
  /** Component name, used in logs, pid tracking and error messages. */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  logPath: string;
}

export interface TrackedProcess {
  name: string;
  pid: number;
  logPath: string;
}

/**
 * Starts a long-running component detached in its own process group, so
 * `stack up` can exit while it runs and `stack down` can stop it and its children.
 */
export function startProcess(spec: ProcessSpec): TrackedProcess {
  const log = openSync(spec.logPath, 'a');
  try {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', log, log],
      detached: true,
    });
    if (child.pid === undefined) {
      throw new Error(`${spec.name}: could not start ${spec.command} (see ${spec.logPath})`);
    }
    child.unref();
    return { name: spec.name, pid: child.pid, logPath: spec.logPath };
  } finally {
    closeSync(log);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the whole process group, then SIGKILL if it is still there after the grace period. */
export async function stopProcess(proc: { pid: number }, options: { graceMs?: number } = {}): Promise<void> {
  const graceMs = options.graceMs ?? 10_000;
  if (!signalGroup(proc.pid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(proc.pid)) return;
    await sleep(100);
  }
  signalGroup(proc.pid, 'SIGKILL');
  while (isAlive(proc.pid)) await sleep(50);
}

function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

export interface WaitOptions {
  /** What is awaited, for the error message. */
  what: string;
  timeoutMs: number;
  intervalMs?: number;
  /** A process whose death ends the wait early with its log in the error. */
  process?: TrackedProcess;
}

/** Polls until `check` resolves true; fails naming the component and where its log is. */
export async function waitUntil(check: () => Promise<boolean>, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (options.process && !isAlive(options.process.pid)) {
      throw new Error(
        `${options.what}: process ${options.process.name} exited; last log lines from ${options.process.logPath}:\n${tail(options.process.logPath)}`,
      );
    }
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    await sleep(options.intervalMs ?? 250);
  }
  const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  const log = options.process ? `; log: ${options.process.logPath}\n${tail(options.process.logPath)}` : '';
  throw new Error(`${options.what}: not ready after ${options.timeoutMs} ms${cause}${log}`);
}

function tail(path: string, lines = 20): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
