import { describe, expect, it } from '@jest/globals';
import { writeHeapSnapshot } from 'node:v8';
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

  it('reads a real snapshot of this process, in which a retained class shows by name', () => {
    class BenchHeapMarker {
      readonly payload = 'x'.repeat(10);
    }
    const retained = Array.from({ length: 2000 }, () => new BenchHeapMarker());
    const dir = mkdtempSync(join(tmpdir(), 'heap-'));
    try {
      const breakdown = readHeapSnapshot(writeHeapSnapshot(join(dir, 'test.heapsnapshot')), { top: 100_000 });
      expect(breakdown.top.find((category) => category.name === 'BenchHeapMarker')?.count).toBeGreaterThanOrEqual(retained.length);
      expect(breakdown.totalMiB).toBeGreaterThan(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
