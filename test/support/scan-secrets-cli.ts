// `node test/support/scan-secrets-cli.ts`: the secret scan `npm run test:stack` ends with, run
// by hand over the test stack's logs and API server (METAL3_TS_TEST_STACK_DIR moves it).
import { Kubectl } from './kubectl.ts';
import { describeScan, scanForSecrets, stackLogFiles, testSecretValues } from './secret-scan.ts';
import { readStackEnv } from './stack-env.ts';
import { testStackDir } from './test-stack-dir.ts';

const env = readStackEnv();
const kubectl = new Kubectl(env);
try {
  const report = await scanForSecrets({ logFiles: stackLogFiles(testStackDir()), secrets: testSecretValues(env), kubectl });
  console.log(describeScan(report));
  for (const where of report.found) console.log(`  found: ${where}`);
  process.exitCode = report.found.length === 0 ? 0 : 1;
} finally {
  kubectl.dispose();
}
