import { join } from 'node:path';
import { repoRoot } from '../../hack/stack/paths.ts';

/** The stack that jest's integration and e2e projects share; separate from a developer's `npm run stack`. */
export function testStackDir(): string {
  return process.env.METAL3_TS_TEST_STACK_DIR ?? join(repoRoot, '.stack-test');
}
