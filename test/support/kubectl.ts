import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StackEnv } from './stack-env.ts';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * kubectl against the test stack, with its own discovery cache so new CRD short names are
 * seen at once and nothing lands in the developer's ~/.kube/cache.
 */
export class Kubectl {
  readonly #env: Pick<StackEnv, 'kubectl' | 'kubeconfig'>;
  readonly #cacheDir = mkdtempSync(join(tmpdir(), 'kubectl-cache-'));

  constructor(env: Pick<StackEnv, 'kubectl' | 'kubeconfig'>) {
    this.#env = env;
  }

  /** Runs kubectl and reports how it ended; never rejects on a non-zero exit. */
  run(args: string[], input?: string): Promise<KubectlResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.#env.kubectl, ['--kubeconfig', this.#env.kubeconfig, '--cache-dir', this.#cacheDir, ...args], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(input ?? '');
    });
  }

  /** Runs kubectl and resolves to its stdout; rejects with stderr on failure. */
  async ok(args: string[], input?: string): Promise<string> {
    const result = await this.run(args, input);
    if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited with ${result.code}: ${result.stderr.trim()}`);
    return result.stdout;
  }

  /**
   * Starts a long-running kubectl (a `--watch`) and collects its stdout lines; `ready` resolves
   * with the first line (the watch has listed, so later changes are all seen), `printed` gives the
   * whole lines so far, `stop` ends it.
   */
  lines(args: string[]): { ready: Promise<string>; printed: () => string[]; stop: () => Promise<string[]>; stderr: () => string } {
    const child = spawn(this.#env.kubectl, ['--kubeconfig', this.#env.kubeconfig, '--cache-dir', this.#cacheDir, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
    const ready = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const newline = stdout.indexOf('\n');
        if (newline >= 0) resolve(stdout.slice(0, newline));
      });
      child.on('error', reject);
      void ended.then(() => reject(new Error(`kubectl ${args.join(' ')} ended before printing a line: ${stderr.trim()}`)));
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return {
      ready,
      // The text after the last newline is a line still being printed.
      printed: () => stdout.split('\n').slice(0, -1).filter((line) => line !== ''),
      stop: async () => {
        child.kill();
        await ended;
        return stdout.split('\n').filter((line) => line !== '');
      },
      stderr: () => stderr,
    };
  }

  /**
   * `kubectl port-forward` to a pod's port, listening on loopback; resolves once kubectl listens,
   * with the local port it took. `stderr` is what kubectl reported since (a forwarding error).
   */
  async portForward(options: { namespace: string; pod: string; port: number }): Promise<{ localPort: number; stderr: () => string; close: () => Promise<void> }> {
    const forward = this.lines(['-n', options.namespace, 'port-forward', `pod/${options.pod}`, `:${options.port}`, '--address', '127.0.0.1']);
    const first = await forward.ready;
    const match = /^Forwarding from 127\.0\.0\.1:(\d+) /.exec(first);
    if (match === null) {
      await forward.stop();
      throw new Error(`kubectl port-forward to ${options.namespace}/${options.pod}:${options.port} printed "${first}"`);
    }
    return { localPort: Number(match[1]), stderr: forward.stderr, close: async () => { await forward.stop(); } };
  }

  async json<T>(args: string[]): Promise<T> {
    return JSON.parse(await this.ok([...args, '-o', 'json'])) as T;
  }

  dispose(): void {
    rmSync(this.#cacheDir, { recursive: true, force: true });
  }
}
