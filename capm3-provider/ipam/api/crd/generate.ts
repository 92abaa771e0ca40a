import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { syncGeneratedFiles } from '../../../../operator/api/index.ts';
import { ipamGeneratedFiles } from './generated-files.ts';

/** Writes deploy/ipam/crds/ from the zod schemas; --check only reports drift (CI). */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
process.exitCode = syncGeneratedFiles({
  repoRoot,
  files: ipamGeneratedFiles(),
  check: process.argv.includes('--check'),
  regenerateCommand: 'npm run generate:crds',
});
