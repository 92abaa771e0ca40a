import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root, found from this file's location so any cwd works. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Built binaries and venvs live outside the repo, keyed by version, and survive clones. */
export function cacheRoot(): string {
  return process.env.METAL3_TS_CACHE ?? join(homedir(), '.cache', 'metal3-ts');
}

/** Where a running stack keeps its state: pids, logs, configs, kubeconfig, env files. */
export function defaultStateDir(): string {
  return process.env.METAL3_TS_STACK_DIR ?? join(repoRoot, '.stack');
}
