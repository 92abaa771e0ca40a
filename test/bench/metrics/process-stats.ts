// CPU time and memory of one process, from Linux's /proc.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ProcessStats {
  /** User + system CPU time since the process started. */
  cpuSeconds: number;
  rssKiB: number;
  /** Peak resident set size (VmHWM). */
  peakRssKiB: number;
}

/** utime + stime (fields 14 and 15) of /proc/<pid>/stat; the command name may contain spaces. */
export function cpuSecondsFromStat(stat: string, clockTicksPerSecond: number): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime field 15.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`unreadable /proc stat line: ${stat.slice(0, 80)}`);
  return (utime + stime) / clockTicksPerSecond;
}

export function memoryFromStatus(status: string): { rssKiB: number; peakRssKiB: number } {
  const kib = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`no ${field} in /proc status`);
    return Number(match[1]);
  };
  return { rssKiB: kib('VmRSS'), peakRssKiB: kib('VmHWM') };
}

let clockTicks: number | undefined;

export function clockTicksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

export function readProcessStats(pid: number): ProcessStats {
  const cpuSeconds = cpuSecondsFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8'), clockTicksPerSecond());
  return { cpuSeconds, ...memoryFromStatus(readFileSync(`/proc/${pid}/status`, 'utf8')) };
}
