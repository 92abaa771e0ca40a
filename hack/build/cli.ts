// `npm run build [entry…]`: writes dist/ (by default the operator's, the provider's and the IP
// address manager's JavaScript). The tests, the benchmark and `npm run dev` build before they
// start a process; each image builds its own entry in a stage of its own (deploy/images/*.Dockerfile).
import { parseArgs } from 'node:util';
import { BUILD_DIR, RUNTIME_ENTRIES, buildRuntimeEntries, type RuntimeEntry } from './entries.ts';

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const unknown = positionals.filter((entry) => !(RUNTIME_ENTRIES as readonly string[]).includes(entry));
if (unknown.length > 0) {
  console.error(`build: not an entry point: ${unknown.join(', ')} (entry points: ${RUNTIME_ENTRIES.join(', ')})`);
  process.exit(2);
}
const entries = positionals.length > 0 ? (positionals as RuntimeEntry[]) : RUNTIME_ENTRIES;
const { sources, written } = await buildRuntimeEntries(entries);
console.log(`build: ${sources.length} files from ${entries.join(', ')} into ${BUILD_DIR}/ (${written} changed)`);
