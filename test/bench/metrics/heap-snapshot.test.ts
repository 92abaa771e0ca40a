import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHeapSnapshot, summariseHeapSnapshot } from './heap-snapshot.ts';

describe('heap snapshot summary', () => {
  it('sums self sizes by constructor for objects and by kind for V8 internals, largest first', () => {
    const raw = {
      snapshot: { meta: { node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'], node_types: [['hidden', 'object', 'string']] } },
      // type, name, id, self_size, edge_count
      nodes: [1, 0, 1, 2 ** 20, 0, 1, 0, 2, 2 ** 20, 0, 2, 1, 3, 3 * 2 ** 20, 0, 0, 1, 4, 512, 0],
      strings: ['Informer', 'x'],
    };
    expect(summariseHeapSnapshot(raw)).toEqual({
      totalMiB: 5,
      nodes: 4,
      top: [
        { name: '(strings)', count: 1, selfMiB: 3 },
        { name: 'Informer', count: 2, selfMiB: 2 },
        { name: '(V8 internals)', count: 1, selfMiB: 0 },
      ],
    });
  });

  it('reads a real snapshot of a small Node process, in which a retained class shows by name', () => {
    // A child process, not this jest worker: the worker's own heap after hundreds of suites
    // can exceed the longest string V8 can hold, which is not what this test is about.
    const dir = mkdtempSync(join(tmpdir(), 'heap-'));
    const path = join(dir, 'child.heapsnapshot');
    const script = [
      "const { writeHeapSnapshot } = require('node:v8');",
      "class BenchHeapMarker { constructor() { this.payload = 'x'.repeat(10); } }",
      'globalThis.retained = Array.from({ length: 2000 }, () => new BenchHeapMarker());',
      'writeHeapSnapshot(process.argv[1]);',
    ].join('\n');
    try {
      execFileSync(process.execPath, ['-e', script, path], { stdio: 'pipe' });
      const breakdown = readHeapSnapshot(path, { top: 100_000 });
      expect(breakdown.top.find((category) => category.name === 'BenchHeapMarker')?.count).toBeGreaterThanOrEqual(2000);
      expect(breakdown.totalMiB).toBeGreaterThan(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
