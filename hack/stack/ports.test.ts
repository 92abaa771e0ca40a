import { createServer } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ephemeralPortRange, freePort, freePorts } from './ports.ts';

describe('freePort', () => {
  it('chooses below the kernel\'s ephemeral range, where no outgoing connection takes a source port', async () => {
    const range = { low: 32768, high: 60999 };
    for (let i = 0; i < 5; i++) {
      const port = await freePort({ range });
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(range.low);
    }
  });

  it('skips a port something already listens on, and never hands out one port twice', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const taken = (busy.address() as { port: number }).port;
    const range = { low: taken + 1, high: 60999 };
    // Only two candidates exist above 10,000 in this test's view: the taken one and its neighbour.
    const candidates = [taken, taken - 1];
    let next = 0;
    const random = () => (candidates[next++ % 2]! - 10_000) / (range.low - 10_000);
    try {
      const first = await freePort({ range, random });
      expect(first).toBe(taken - 1);
      // Both candidates used up now (one busy, one handed out): the kernel's own choice.
      const second = await freePort({ range, random });
      expect(second).not.toBe(taken);
      expect(second).not.toBe(first);
    } finally {
      busy.close();
    }
  });

  it('falls back to the kernel\'s choice when the range is unknown', async () => {
    const port = await freePort({ range: undefined });
    expect(port).toBeGreaterThan(0);
  });

  it('gives distinct ports', async () => {
    const ports = await freePorts(20);
    expect(new Set(ports).size).toBe(20);
  });
});

describe('ephemeralPortRange', () => {
  it('reads the kernel\'s range, and says nothing when it cannot', () => {
    const dir = mkdtempSync(join(tmpdir(), 'port-range-'));
    try {
      writeFileSync(join(dir, 'range'), '32768\t60999\n');
      expect(ephemeralPortRange(join(dir, 'range'))).toEqual({ low: 32768, high: 60999 });
      expect(ephemeralPortRange(join(dir, 'missing'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
