import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRuntime, type BuildResult } from './bundle.ts';

// Found from this file like hack/stack/paths.ts's repoRoot, without importing it: the images'
// build stage copies hack/build/ alone (deploy/images/*.Dockerfile).
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where `npm run build` writes the processes' JavaScript (ignored by git). */
export const BUILD_DIR = 'dist';

/** The processes we ship: the operator, the provider and the IP address manager. */
export const RUNTIME_ENTRIES = ['operator/main.ts', 'capm3-provider/main.ts', 'capm3-provider/ipam/main.ts'] as const;

export type RuntimeEntry = (typeof RUNTIME_ENTRIES)[number];

/** The built file a process runs, relative to the repository root (`dist/operator/main.js`). */
export function builtEntry(entry: RuntimeEntry): string {
  return join(BUILD_DIR, entry.replace(/\.ts$/, '.js'));
}

/** The built file's absolute path, for starting the process from anywhere. */
export function builtEntryPath(entry: RuntimeEntry): string {
  return join(repoRoot, builtEntry(entry));
}

/** Builds runtime entries of this repository, all by default (quick when nothing changed: files are compared first). */
export function buildRuntimeEntries(entries: readonly RuntimeEntry[] = RUNTIME_ENTRIES): Promise<BuildResult> {
  return buildRuntime({ root: repoRoot, entries, outDir: BUILD_DIR });
}
