// `npm run test:stack`: the integration and e2e files against one shared test stack, brought
// up once. The files in exclusive-files.ts run first, one at a time; the others then run side
// by side in several jest workers (each owns its emulated servers and namespace), so the run
// takes about as long as its slowest files rather than their sum. The stack is stopped at the
// end whatever happened (unless METAL3_TS_REUSE_STACK=1 reused one). Before that, every log
// captured and every Event and host left are scanned for the tests' credentials and user data.
// Exits non-zero if either jest run failed or the scan found one; its closing line sums both
// runs' counts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stackDown } from '../../hack/stack/stack.ts';
import { repoRoot } from '../../hack/stack/paths.ts';
import { EXCLUSIVE_FILES } from './exclusive-files.ts';
import { Kubectl } from './kubectl.ts';
import { releaseAllServers } from './release-systems.ts';
import { describeScan, scanForSecrets, stackLogFiles, testSecretValues } from './secret-scan.ts';
import { SIDE_BY_SIDE_ENV } from './side-by-side.ts';
import { readStackEnv } from './stack-env.ts';
import { prepareTestStack, reusableTestStack, startTestStack } from './test-stack.ts';
import { testStackDir } from './test-stack-dir.ts';

const workers = Number(process.env.METAL3_TS_STACK_TEST_WORKERS ?? '3');
if (!Number.isInteger(workers) || workers < 1) throw new Error(`METAL3_TS_STACK_TEST_WORKERS must be a positive integer, got ${process.env.METAL3_TS_STACK_TEST_WORKERS}`);

interface JestCounts { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTotalTests: number;
  numPassedTestSuites: number; numFailedTestSuites: number; numTotalTestSuites: number }
interface JestRun { name: string; code: number; seconds: number; counts: JestCounts | undefined }

/**
 * After every file ran: no credential or user data the tests used appears in any log the stack
 * and the test support captured, nor in any Event, BareMetalHost or Metal3Machine left on the
 * API server. Returns whether the scan was clean.
 */
async function secretScan(stateDir: string): Promise<boolean> {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  try {
    const report = await scanForSecrets({ logFiles: stackLogFiles(stateDir), secrets: testSecretValues(env), kubectl });
    console.log(`\n${describeScan(report)}`);
    for (const where of report.found) console.log(`  found: ${where}`);
    // Every operator and provider stopped by a test keeps its metrics page; none means the
    // capture broke and the labels went unread.
    if (report.metricsPages === 0) console.log('  no metrics page was kept: the metric labels were not scanned');
    return report.found.length === 0 && report.metricsPages > 0;
  } finally {
    kubectl.dispose();
  }
}

let running: ChildProcess | undefined;
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted = true;
    running?.kill(signal);
  });
}

const escape = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exclusivePattern = EXCLUSIVE_FILES.map((file) => escape(file.path)).join('|');
const outputDir = mkdtempSync(join(tmpdir(), 'metal3-ts-stack-tests-'));

async function runJest(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<JestRun> {
  const outputFile = join(outputDir, `${name}.json`);
  console.log(`\n=== stack tests, ${name} ===`);
  const started = Date.now();
  const code = await new Promise<number>((resolveCode) => {
    running = spawn(process.execPath, [
      '--experimental-vm-modules', '--disable-warning=ExperimentalWarning', join(repoRoot, 'node_modules', 'jest', 'bin', 'jest.js'),
      '--selectProjects', 'integration', 'e2e', '--json', `--outputFile=${outputFile}`, ...args,
    ], { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, ...env } });
    running.on('exit', (exitCode, signal) => resolveCode(exitCode ?? (signal ? 1 : 0)));
  });
  running = undefined;
  let counts: JestCounts | undefined;
  try {
    counts = JSON.parse(readFileSync(outputFile, 'utf8')) as JestCounts;
  } catch {
    counts = undefined;
  }
  return { name, code, seconds: (Date.now() - started) / 1000, counts };
}

function summary(runs: JestRun[]): string {
  const sum = (key: keyof JestCounts) => runs.reduce((total, run) => total + (run.counts?.[key] ?? 0), 0);
  const part = (count: number, label: string) => (count > 0 ? [`${count} ${label}`] : []);
  const suites = [...part(sum('numFailedTestSuites'), 'failed'), ...part(sum('numPassedTestSuites'), 'passed'), `${sum('numTotalTestSuites')} total`];
  const tests = [...part(sum('numFailedTests'), 'failed'), ...part(sum('numPendingTests'), 'skipped'), ...part(sum('numPassedTests'), 'passed'), `${sum('numTotalTests')} total`];
  return [
    ...runs.map((run) => `${run.name}: ${run.code === 0 ? 'passed' : `FAILED (exit ${run.code})`} in ${run.seconds.toFixed(0)} s`),
    `Test Suites: ${suites.join(', ')} (both runs)`,
    `Tests:       ${tests.join(', ')} (both runs)`,
    // The plain closing line CI reads, in any language: "N passed, N failed[, N skipped]".
    `Tests: ${sum('numPassedTests')} passed, ${sum('numFailedTests')} failed${sum('numPendingTests') ? `, ${sum('numPendingTests')} skipped` : ''}`,
  ].join('\n');
}

async function main(): Promise<number> {
  const stateDir = testStackDir();
  const reuse = process.env.METAL3_TS_REUSE_STACK === '1' && reusableTestStack(stateDir);
  const runs: JestRun[] = [];
  let secretsClean: boolean;
  try {
    if (reuse) await prepareTestStack(stateDir);
    else await startTestStack(stateDir);
    const stackEnv = { METAL3_TS_TEST_STACK_DIR: stateDir, METAL3_TS_TEST_STACK_OWNER: 'npm run test:stack' };
    runs.push(await runJest('exclusive files, one at a time', ['--runInBand', '--testPathPatterns', exclusivePattern], stackEnv));
    if (!interrupted) {
      // Nothing runs now: free every server once, as each file would have on its own.
      await releaseAllServers(readStackEnv());
      runs.push(await runJest(`the other files, ${workers} side by side`, [
        `--maxWorkers=${workers}`, '--testPathIgnorePatterns', exclusivePattern,
        '--testSequencer', join(repoRoot, 'test', 'support', 'e2e-first-sequencer.ts'),
      ], { ...stackEnv, [SIDE_BY_SIDE_ENV]: '1' }));
    }
    secretsClean = await secretScan(stateDir);
  } finally {
    if (!reuse) await stackDown(stateDir);
    rmSync(outputDir, { recursive: true, force: true });
  }
  console.log(`\n${summary(runs)}`);
  return interrupted || runs.length < 2 || runs.some((run) => run.code !== 0) || !secretsClean ? 1 : 0;
}

process.exitCode = await main();
