import { stackDown } from '../../hack/stack/stack.ts';
import { testStackDir } from './test-stack-dir.ts';

/** Stops the stack this run started; nothing is left listening. */
export default async function globalTeardown(): Promise<void> {
  if (process.env.METAL3_TS_TEST_STACK_OWNER !== 'this-run' || process.env.METAL3_TS_REUSE_STACK === '1') return;
  process.env.METAL3_TS_TEST_STACK_OWNER = 'stopped';
  await stackDown(testStackDir());
}
