import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive, stopProcess, type TrackedProcess } from '../../../hack/stack/processes.ts';
import type { SeededRandom } from './seeded-random.ts';

/** One life of a controller process: what the fault loop needs to kill it and read its log. */
export interface ProcessLife {
  process: TrackedProcess;
  stop(): Promise<void>;
}

/**
 * A controller process as a node crash sees it: SIGKILLed at random moments and started again
 * at once (as the kubelet would), each life with its own log file.
 */
export class ProcessUnderFire {
  readonly #start: (life: number) => ProcessLife;
  #current: ProcessLife;
  #lives = 1;
  kills = 0;
  readonly logPaths: string[] = [];

  constructor(start: (life: number) => ProcessLife) {
    this.#start = start;
    this.#current = this.#begin();
  }

  #begin(): ProcessLife {
    const life = this.#start(this.#lives);
    this.logPaths.push(life.process.logPath);
    return life;
  }

  async killAndRestart(): Promise<void> {
    const { process: dying } = this.#current;
    if (isAlive(dying.pid)) process.kill(-dying.pid, 'SIGKILL');
    await stopProcess(dying, { graceMs: 1_000 });
    this.kills++;
    this.#lives++;
    this.#current = this.#begin();
  }

  /**
   * Kills the process `count` times while `phase` runs, each after a random pause within
   * `pauseMs`; returns the kills not made because the phase ended first.
   */
  async killDuring(phase: Promise<unknown>, options: { count: number; pauseMs: [number, number]; random: SeededRandom }): Promise<number> {
    let over = false;
    const ended = phase.then(() => { over = true; }, () => { over = true; });
    let left = options.count;
    while (left > 0) {
      await Promise.race([sleep(options.random.between(...options.pauseMs)), ended]);
      if (over) break;
      await this.killAndRestart();
      left--;
    }
    return left;
  }

  stop(): Promise<void> {
    return this.#current.stop();
  }

  get current(): ProcessLife {
    return this.#current;
  }
}
