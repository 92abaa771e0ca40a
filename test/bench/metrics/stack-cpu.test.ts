import { describe, expect, it } from '@jest/globals';
import { processRow, subtreeCpuSeconds } from './stack-cpu.ts';

// /proc/<pid>/stat: pid (comm) state ppid … utime(14) stime(15) cutime(16) cstime(17) …
const stat = (pid: number, comm: string, ppid: number, [utime, stime, cutime, cstime]: number[]) =>
  `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194560 100 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 4 0 100 1000 200`;

describe('the stack\'s CPU per component', () => {
  it('reads the parent and the four CPU fields, whatever the command name holds', () => {
    expect(processRow(stat(42, 'ironic (api) x', 7, [100, 50, 20, 5]))).toEqual({ pid: 42, ppid: 7, cpuTicks: 175 });
  });

  it('sums each component with its live descendants, and leaves a component that is gone out', () => {
    const rows = [
      processRow(stat(10, 'ironic', 1, [100, 0, 50, 0])),
      processRow(stat(11, 'ironic-worker', 10, [200, 100, 0, 0])),
      processRow(stat(12, 'python3', 11, [100, 0, 0, 0])),
      processRow(stat(20, 'etcd', 1, [300, 0, 0, 0])),
      processRow(stat(30, 'unrelated', 1, [900, 0, 0, 0])),
    ];
    const totals = subtreeCpuSeconds(rows, [{ name: 'ironic', pid: 10 }, { name: 'etcd', pid: 20 }, { name: 'sushy', pid: 99 }], 100);
    expect(totals).toEqual({ ironic: 5.5, etcd: 3 });
  });
});
