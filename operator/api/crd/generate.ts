import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedFiles } from './generated-files.ts';

/**
 * Writes deploy/crds/ from the zod schemas. With --check it writes nothing and exits 1 when
 * a committed file is missing or differs (CI drift check).
 *   node operator/api/crd/generate.ts [--check]
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const check = process.argv.includes('--check');

const stale: string[] = [];
for (const file of generatedFiles()) {
  const target = join(repoRoot, file.path);
  const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
  if (current === file.content) continue;
  stale.push(file.path);
  if (!check) {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
}

if (check && stale.length > 0) {
  console.error(`CRDs out of date, run \`node operator/api/crd/generate.ts\`: ${stale.join(', ')}`);
  process.exitCode = 1;
} else if (check) {
  console.log('CRDs up to date');
} else {
  console.log(stale.length > 0 ? `wrote ${stale.join(', ')}` : 'CRDs already up to date');
}
