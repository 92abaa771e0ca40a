// CPU time of the stack's processes (Ironic, kube-apiserver, etcd, the emulated BMCs…), each with
// its descendants, so a phase shows where the machine's cores went: the floor's Ironic against
// the operator's Ironic plus the Kubernetes API server and etcd it writes through.
import { readFileSync, readdirSync } from 'node:fs';
import { readStateComponents } from '../../../hack/stack/state.ts';
import { clockTicksPerSecond } from './process-stats.ts';
import type { Totals } from './counter-totals.ts';

export interface ProcessRow {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime: its own CPU and that of the children it has reaped. */
  cpuTicks: number;
}

/** One /proc/<pid>/stat line; the command name may contain spaces and parentheses. */
export function processRow(stat: string): ProcessRow {
  const pid = Number(stat.slice(0, stat.indexOf(' ')));
  // fields[0] is field 3 (state): ppid is field 4, utime..cstime fields 14 to 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields.slice(11, 15).map(Number);
  return { pid, ppid: Number(fields[1]), cpuTicks: ticks.reduce((sum, value) => sum + value, 0) };
}

/** Per component, the CPU seconds of its process and every live descendant. */
export function subtreeCpuSeconds(rows: readonly ProcessRow[], roots: ReadonlyArray<{ name: string; pid: number }>, ticksPerSecond: number): Totals {
  const children = new Map<number, ProcessRow[]>();
  for (const row of rows) {
    const siblings = children.get(row.ppid);
    if (siblings) siblings.push(row);
    else children.set(row.ppid, [row]);
  }
  const byPid = new Map(rows.map((row) => [row.pid, row]));
  const totals: Totals = {};
  for (const root of roots) {
    const start = byPid.get(root.pid);
    if (!start) continue;
    let ticks = 0;
    const pending = [start];
    for (let row = pending.pop(); row; row = pending.pop()) {
      ticks += row.cpuTicks;
      pending.push(...(children.get(row.pid) ?? []));
    }
    totals[root.name] = (totals[root.name] ?? 0) + ticks / ticksPerSecond;
  }
  return totals;
}

function readProcessRows(): ProcessRow[] {
  const rows: ProcessRow[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      rows.push(processRow(readFileSync(`/proc/${entry}/stat`, 'utf8')));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return rows;
}

/** CPU seconds so far of each named process tree (the stack's components). */
export function stackCpuSeconds(components: ReadonlyArray<{ name: string; pid: number }>): Totals {
  return subtreeCpuSeconds(readProcessRows(), components, clockTicksPerSecond());
}

/** The stack's components as its state file records them (none when there is no state file). */
export function stackComponents(stateDir: string): Array<{ name: string; pid: number }> {
  return (readStateComponents(stateDir) ?? []).map((component) => ({ name: component.name, pid: component.pid }));
}
