import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const script = fileURLToPath(new URL('./generate.ts', import.meta.url));

describe('generated Ironic types', () => {
  it('match what the spec generates (the CI --check)', async () => {
    // A child process: the generator is plain Node 24 code, outside Jest's module system.
    const { stdout } = await run(process.execPath, ['--disable-warning=ExperimentalWarning', script, '--check']);
    expect(stdout).toContain('is up to date');
  }, 30_000);
});
