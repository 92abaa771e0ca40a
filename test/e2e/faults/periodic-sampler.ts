/**
 * Reads something over and over while faults happen, one read at a time; a failed read (the
 * API server or Ironic briefly away) is skipped, not counted.
 */
export abstract class PeriodicSampler {
  #samples = 0;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();

  start(intervalMs: number): void {
    this.#timer = setInterval(() => {
      this.#running = this.#running.then(() => this.sample()).catch(() => undefined);
    }, intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  async sample(): Promise<void> {
    await this.read();
    this.#samples++;
  }

  get samples(): number {
    return this.#samples;
  }

  protected abstract read(): Promise<void>;
}
