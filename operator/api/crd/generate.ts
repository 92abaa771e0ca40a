import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedFiles } from './generated-files.ts';
import { syncGeneratedFiles } from './sync-files.ts';

/**
 * Writes deploy/crds/ from the zod schemas. With --check it writes nothing and exits 1 when
 * a committed file is missing or differs (CI drift check).
 *   node operator/api/crd/generate.ts [--check]
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
process.exitCode = syncGeneratedFiles({
  repoRoot,
  files: generatedFiles(),
  check: process.argv.includes('--check'),
  regenerateCommand: 'npm run generate:crds',
});
