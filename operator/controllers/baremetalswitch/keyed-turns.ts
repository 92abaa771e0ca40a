/**
 * Runs work for one key at a time, in the order it was asked for; work for other keys runs
 * alongside. A key is forgotten once its last piece of work ends, so nothing outlives it.
 */
export class KeyedTurns {
  readonly #last = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#last.get(key);
    const turn = previous ? previous.then(work, work) : work();
    this.#last.set(key, turn);
    try {
      return await turn;
    } finally {
      if (this.#last.get(key) === turn) this.#last.delete(key);
    }
  }

  /** Keys with work running or waiting. */
  get size(): number {
    return this.#last.size;
  }
}
