// Which node names Ironic had when the node sweep last listed every node. A new host's first pass
// asks for its node by name twice (BMO's current and old names), and while many hosts register
// both answers are almost always "not found": a recent list that shows neither name answers them
// for every host at once. The boot MAC is still asked for, so a node of this hardware under
// another name is found as before.
import type { Clock } from '../../runtime/clock.ts';

export class NodeNameSnapshot {
  readonly #clock: Clock;
  readonly #maxAgeMs: number;
  #names: ReadonlySet<string> | undefined;
  #listStartedAtMs = 0;
  /**
   * Names this process asked Ironic to create a node by, and when that request ended (created,
   * refused or lost). A list begun before then may not show the node; one begun after does.
   */
  readonly #createAsked = new Map<string, number>();

  constructor(options: { clock: Clock; maxAgeMs: number }) {
    this.#clock = options.clock;
    this.#maxAgeMs = options.maxAgeMs;
  }

  /** The names of every node in a list whose request began at `listStartedAtMs`. */
  record(names: Iterable<string>, listStartedAtMs: number): void {
    this.#names = new Set(names);
    this.#listStartedAtMs = listStartedAtMs;
    for (const [name, endedAtMs] of this.#createAsked) if (endedAtMs < listStartedAtMs) this.#createAsked.delete(name);
  }

  createAsked(name: string): void {
    this.#createAsked.set(name, this.#clock.now());
  }

  /**
   * Whether Ironic has no node by any of `names`, by the last list: begun at most `maxAgeMs` ago
   * and after this process last asked to create one of them. A node someone else made by the
   * current name since is refused a twin by Ironic (names are unique), and the next pass looks.
   */
  rulesOut(names: readonly string[]): boolean {
    const known = this.#names;
    if (known === undefined || this.#clock.now() - this.#listStartedAtMs > this.#maxAgeMs) return false;
    return names.every((name) => !known.has(name) && !this.#createAsked.has(name));
  }
}
