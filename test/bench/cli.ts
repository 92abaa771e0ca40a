// `npm run bench -- --hosts N [--mode redfish|fake-hardware|fixture] [--out dir]`: runs the scale
// benchmark on its own local stack and writes <out>/<mode>-n<N>-<time>.json and .md.
import { USAGE, parseBenchArgs } from './options.ts';
import type { BenchOptions } from './options.ts';
import { renderMarkdown } from './report/markdown.ts';
import { writeReport } from './report/write-report.ts';
import { runBench } from './run-bench.ts';

let options: BenchOptions;
try {
  options = parseBenchArgs(process.argv.slice(2));
} catch (error) {
  console.error(`bench: ${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);
const report = await runBench(options, { log });
const paths = writeReport(report, options.outDir);
console.log(`\n${renderMarkdown(report)}`);
log(`bench: wrote ${paths.json} and ${paths.markdown}`);
