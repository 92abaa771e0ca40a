// Where the operator's V8 heap goes: a .heapsnapshot (written by the operator on SIGUSR2,
// node --heapsnapshot-signal) summed by what DevTools' Summary view calls the constructor,
// by shallow (self) size.
import { readFileSync } from 'node:fs';

export interface HeapCategory {
  /** Constructor name for objects, `(strings)`, `(code)`, `(arrays)`... for V8's own kinds. */
  name: string;
  count: number;
  selfMiB: number;
}

export interface HeapBreakdown {
  totalMiB: number;
  nodes: number;
  /** Largest first. */
  top: HeapCategory[];
}

interface RawSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: unknown[] } };
  nodes: number[];
  strings: string[];
}

const KIND_NAMES: Record<string, string> = {
  string: '(strings)',
  'concatenated string': '(strings)',
  'sliced string': '(strings)',
  code: '(compiled code)',
  array: '(internal arrays)',
  hidden: '(V8 internals)',
  closure: '(closures)',
  number: '(heap numbers)',
  regexp: '(regexps)',
  'object shape': '(object shapes)',
  bigint: '(bigints)',
  synthetic: '(roots)',
  native: '(native)',
};

const round2 = (value: number) => Math.round(value * 100) / 100;

export function summariseHeapSnapshot(raw: RawSnapshot, options: { top?: number } = {}): HeapBreakdown {
  const fields = raw.snapshot.meta.node_fields;
  const types = raw.snapshot.meta.node_types[0] as string[];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const byName = new Map<string, { count: number; bytes: number }>();
  let total = 0;
  for (let i = 0; i < raw.nodes.length; i += width) {
    const type = types[raw.nodes[i + typeAt]!] ?? 'unknown';
    const bytes = raw.nodes[i + sizeAt]!;
    const name = type === 'object' ? raw.strings[raw.nodes[i + nameAt]!] ?? '(object)' : KIND_NAMES[type] ?? `(${type})`;
    const entry = byName.get(name) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += bytes;
    byName.set(name, entry);
    total += bytes;
  }
  const top = [...byName.entries()]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, options.top ?? 15)
    .map(([name, { count, bytes }]) => ({ name, count, selfMiB: round2(bytes / 2 ** 20) }));
  return { totalMiB: round2(total / 2 ** 20), nodes: raw.nodes.length / width, top };
}

export function readHeapSnapshot(path: string, options: { top?: number } = {}): HeapBreakdown {
  return summariseHeapSnapshot(JSON.parse(readFileSync(path, 'utf8')) as RawSnapshot, options);
}
