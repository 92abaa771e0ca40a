import { buildRuntimeEntries } from '../../hack/build/index.ts';
import { prepareTestStack, reusableTestStack, startTestStack } from './test-stack.ts';
import { testStackDir } from './test-stack-dir.ts';

/**
 * Brings the real stack up once per jest run (the integration and e2e projects share it).
 * With METAL3_TS_REUSE_STACK=1 a stack left running by an earlier run is reused and left
 * running, for fast local iterations. When METAL3_TS_TEST_STACK_OWNER is already set (by
 * `npm run test:stack`'s runner), the stack is someone else's and is used as it is.
 */
export default async function globalSetup(): Promise<void> {
  // The operator, provider and IPAM processes the tests start run the built JavaScript, as the images do.
  await buildRuntimeEntries();
  const stateDir = testStackDir();
  process.env.METAL3_TS_TEST_STACK_DIR = stateDir;
  if (process.env.METAL3_TS_TEST_STACK_OWNER) return;
  if (process.env.METAL3_TS_REUSE_STACK === '1' && reusableTestStack(stateDir)) {
    process.env.METAL3_TS_TEST_STACK_OWNER = 'reused';
    await prepareTestStack(stateDir);
    return;
  }
  await startTestStack(stateDir);
  process.env.METAL3_TS_TEST_STACK_OWNER = 'this-run';
}
