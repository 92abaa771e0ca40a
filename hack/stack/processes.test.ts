import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { isAlive, startProcess, stopProcess, waitUntil } from './processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'metal3-ts-processes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tracked processes', () => {
  it('logs to the file, and stop ends the whole process group', async () => {
    const logPath = join(dir, 'sleeper.log');
    // A shell whose child is the long-lived part: stopping must reach the child too.
    const proc = startProcess({ name: 'sleeper', command: 'bash', args: ['-c', 'echo started; sleep 60 & wait'], logPath });
    await waitUntil(async () => readFileSync(logPath, 'utf8').includes('started'), { what: 'sleeper', timeoutMs: 5_000, process: proc });
    await stopProcess(proc, { graceMs: 2_000 });
    expect(isAlive(proc.pid)).toBe(false);
  });

  it('names the component and its log when it dies before it is ready', async () => {
    const logPath = join(dir, 'broken.log');
    const proc = startProcess({ name: 'broken-component', command: 'bash', args: ['-c', 'echo "bad config: port"; exit 3'], logPath });
    await expect(waitUntil(async () => false, { what: 'broken component API', timeoutMs: 5_000, process: proc }))
      .rejects.toThrow(new RegExp(`broken component API: process broken-component exited; last log lines from ${logPath}:\\n.*bad config: port`, 's'));
  });

  it('says what it waited for and the last error when time runs out', async () => {
    await expect(waitUntil(async () => { throw new Error('connection refused'); }, { what: 'ironic API', timeoutMs: 300, intervalMs: 50 }))
      .rejects.toThrow('ironic API: not ready after 300 ms (last error: connection refused)');
  });
});
