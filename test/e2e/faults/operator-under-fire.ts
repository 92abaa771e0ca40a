import { setTimeout as sleep } from 'node:timers/promises';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import type { StackEnv } from '../../support/stack-env.ts';
import type { SeededRandom } from './seeded-random.ts';

/**
 * The operator process as a node crash sees it: SIGKILLed at random moments and started again
 * at once (as the kubelet would), each life with its own log file.
 */
export class OperatorUnderFire {
  readonly #options: { env: StackEnv; namespace: string; label: string };
  #current: OperatorProcess;
  #lives = 1;
  kills = 0;
  readonly logPaths: string[] = [];

  constructor(options: { env: StackEnv; namespace: string; label: string }) {
    this.#options = options;
    this.#current = this.#start();
  }

  #start(): OperatorProcess {
    const started = startOperatorProcess({ ...this.#options, label: `${this.#options.label}-${this.#lives}` });
    this.logPaths.push(started.process.logPath);
    return started;
  }

  async killAndRestart(): Promise<void> {
    await this.#current.kill();
    this.kills++;
    this.#lives++;
    this.#current = this.#start();
  }

  /**
   * Kills the operator `count` times while `phase` runs, each after a random pause within
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

  get current(): OperatorProcess {
    return this.#current;
  }
}
