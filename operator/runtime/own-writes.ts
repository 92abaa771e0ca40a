import type { Informer } from './informer.ts';
import { objectKey } from './kube-object.ts';
import type { KubeObject } from './kube-object.ts';
import type { Predicate } from './predicates.ts';

/**
 * Writes whose watch events need wake nobody, because the pass that made them already acted on
 * what they say: an extra pass would only read the same state again, waiting in line behind
 * every other object's work. Anyone else's create, edit or delete still passes, and takes with
 * it what was kept for the object, so nothing outlives the object.
 */
export class OwnWrites {
  readonly #cache: Pick<Informer<KubeObject>, 'getByKey'>;
  readonly #redeliver: (object: KubeObject) => void;
  /** Per object (namespace/name): the versions our writes made (a pass may make several), until their events come. */
  readonly #written = new Map<string, Set<string>>();
  /**
   * Per object: how many such writes are on their way (their events may come before their
   * answers), and the last event dropped meanwhile.
   */
  readonly #inFlight = new Map<string, { writes: number; dropped?: KubeObject }>();

  /**
   * `redeliver` hands an event dropped while a write was on its way to whoever it would have
   * woken, when that write fails after all.
   */
  constructor(options: { cache: Pick<Informer<KubeObject>, 'getByKey'>; redeliver: (object: KubeObject) => void }) {
    this.#cache = options.cache;
    this.#redeliver = options.redeliver;
  }

  /**
   * Makes the write (to the object `key` names) and remembers what it returned. An event for the
   * object while the write is on its way is dropped too. The write must fail if the object changed
   * since its pass read it (a create, or a write carrying the resourceVersion read), so such an
   * event is this write's own, or shows what the pass read, or goes to `redeliver` when the write
   * fails.
   */
  async write<T extends KubeObject>(key: string, write: () => Promise<T>): Promise<T> {
    const flight = this.#inFlight.get(key) ?? { writes: 0 };
    flight.writes += 1;
    this.#inFlight.set(key, flight);
    let failed = true;
    try {
      const written = await write();
      failed = false;
      this.remember(written);
      return written;
    } finally {
      flight.writes -= 1;
      if (flight.writes === 0) {
        this.#inFlight.delete(key);
        // A pass whose write failed may not look again: what it was not told of, it is told now.
        if (failed && flight.dropped) this.#redeliver(flight.dropped);
      }
    }
  }

  /** The object as a write returned it. */
  remember(written: KubeObject): void {
    const version = written.metadata.resourceVersion;
    if (version === undefined) return;
    // The watch may have delivered the write before its response came: then no event is left
    // to take the entry away, so none is kept.
    const key = objectKey(written);
    if (this.#cache.getByKey(key)?.metadata.resourceVersion === version) return;
    const versions = this.#written.get(key) ?? new Set<string>();
    versions.add(version);
    this.#written.set(key, versions);
  }

  /**
   * Whether the cache has seen every write made here to the object `key` names: none on its way,
   * none whose event is still to come. Then the cached copy shows what those writes made.
   */
  settled(key: string): boolean {
    return !this.#inFlight.has(key) && !this.#written.has(key);
  }

  readonly filter: Predicate = {
    create: (object) => !this.#isOwn(object),
    update: (_old, object) => !this.#isOwn(object),
    delete: (object) => {
      this.#written.delete(objectKey(object));
      return true;
    },
  };

  #isOwn(object: KubeObject): boolean {
    const key = objectKey(object);
    const versions = this.#written.get(key);
    const version = object.metadata.resourceVersion;
    const flight = this.#inFlight.get(key);
    if (flight) {
      // An earlier write of the pass may be the one whose event this is.
      if (version !== undefined) versions?.delete(version);
      flight.dropped = object;
      return true;
    }
    if (versions === undefined) return false;
    if (version === undefined || !versions.delete(version)) {
      // Someone else's version: whatever we kept for the object goes with it.
      this.#written.delete(key);
      return false;
    }
    if (versions.size === 0) this.#written.delete(key);
    return true;
  }
}
