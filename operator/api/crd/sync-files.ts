import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A file a generator owns, relative to the repository root. */
export interface GeneratedFile {
  path: string;
  content: string;
}

export interface SyncGeneratedFilesOptions {
  repoRoot: string;
  files: readonly GeneratedFile[];
  /** Write nothing; report the stale files (CI drift check). */
  check: boolean;
  /** How to regenerate, for the drift message. */
  regenerateCommand: string;
}

/**
 * Writes generated files that differ from what is committed, or with `check` only reports
 * them. Returns the process exit code: 1 when `check` found a stale file.
 */
export function syncGeneratedFiles(options: SyncGeneratedFilesOptions): number {
  const stale: string[] = [];
  for (const file of options.files) {
    const target = join(options.repoRoot, file.path);
    const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    if (current === file.content) continue;
    stale.push(file.path);
    if (!options.check) {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, file.content);
    }
  }
  if (options.check && stale.length > 0) {
    console.error(`generated files out of date, run \`${options.regenerateCommand}\`: ${stale.join(', ')}`);
    return 1;
  }
  if (options.check) console.log(`up to date: ${options.files.map((file) => file.path).join(', ')}`);
  else console.log(stale.length > 0 ? `wrote ${stale.join(', ')}` : 'already up to date');
  return 0;
}
