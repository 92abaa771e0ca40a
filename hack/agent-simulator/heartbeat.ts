export interface HeartbeaterOptions {
  /** Sends one heartbeat; resolves false (or throws) when Ironic did not accept it. */
  send: () => Promise<boolean>;
  /** Wait after an accepted heartbeat. */
  nextIntervalMs: () => number;
  /** IPA's min_heartbeat_interval: the floor between a heartbeat and a forced one. */
  minIntervalMs: number;
  /** A rejected heartbeat is retried after 1-2x this (IPA: 1-2x its 5 s floor). */
  errorRetryMs: number;
  onError?: (error: unknown) => void;
  random?: () => number;
}

const TICK_MS = 100;

/**
 * IPA's heartbeater thread: the first heartbeat at once, then one per interval; a
 * forced heartbeat (after a command ends) goes out as soon as the floor allows.
 */
export class Heartbeater {
  readonly #options: HeartbeaterOptions;
  #timer: NodeJS.Timeout | undefined;
  #intervalMs = 0;
  #previousAt = Number.NEGATIVE_INFINITY;
  #forced = false;
  /** Bumped by force(); a heartbeat only satisfies the forces that happened before it was sent. */
  #forceGeneration = 0;
  #sending = false;
  #stopped = false;

  constructor(options: HeartbeaterOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#timer !== undefined || this.#stopped) return;
    this.#timer = setInterval(() => void this.#tick(), TICK_MS);
    void this.#tick();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  force(): void {
    this.#forced = true;
    this.#forceGeneration++;
  }

  get running(): boolean {
    return this.#timer !== undefined;
  }

  #due(now: number): boolean {
    const elapsed = now - this.#previousAt;
    if (elapsed >= this.#intervalMs) return true;
    return this.#forced && elapsed > this.#options.minIntervalMs;
  }

  async #tick(): Promise<void> {
    if (this.#stopped || this.#sending || !this.#due(Date.now())) return;
    this.#sending = true;
    const generationAtSend = this.#forceGeneration;
    let accepted = false;
    try {
      accepted = await this.#options.send();
    } catch (error) {
      this.#options.onError?.(error);
    } finally {
      this.#sending = false;
    }
    const random = this.#options.random ?? Math.random;
    if (accepted) {
      this.#forced = this.#forceGeneration !== generationAtSend;
      this.#intervalMs = this.#options.nextIntervalMs();
    } else {
      this.#intervalMs = this.#options.errorRetryMs * (1 + random());
    }
    this.#previousAt = Date.now();
  }
}
