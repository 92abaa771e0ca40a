import { cpus, loadavg, release, totalmem, type } from 'node:os';
import type { Machine } from './types.ts';

export function describeMachine(): Machine {
  const processors = cpus();
  return {
    cpus: processors.length,
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${type()} ${release()}`,
    node: process.version,
    loadAverageAtStart: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}
