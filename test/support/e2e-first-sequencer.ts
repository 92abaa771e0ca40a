import type { Test } from '@jest/test-result';
import sequencerModule from '@jest/test-sequencer';

// Node loads the package's ES module entry, whose default export is the class; TypeScript reads
// its CommonJS typings, where the class is the module's `default` property.
const TestSequencer = sequencerModule as unknown as typeof sequencerModule.default;

/**
 * Starts the long e2e files first when files run side by side, so the run ends close to its
 * slowest file instead of with one long file started last; jest's own order (earlier failures,
 * then longest known or largest first) is kept within each group.
 */
export default class E2eFirstSequencer extends TestSequencer {
  override sort(tests: Array<Test>): Array<Test> | Promise<Array<Test>> {
    const ordered = super.sort(tests);
    const e2eFirst = (list: Array<Test>) => [...list].sort((a, b) => Number(!isE2e(a)) - Number(!isE2e(b)));
    return ordered instanceof Promise ? ordered.then(e2eFirst) : e2eFirst(ordered);
  }
}

function isE2e(test: Test): boolean {
  return test.path.includes('/test/e2e/');
}
