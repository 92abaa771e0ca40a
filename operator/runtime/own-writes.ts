import type { Informer } from './informer.ts';
import { objectKey } from './kube-object.ts';
import type { KubeObject } from './kube-object.ts';
import type { Predicate } from './predicates.ts';

/**
 * Writes whose watch events need wake nobody, because the pass that made them already acted on
 * what they say: an extra pass would only read the same state again, waiting in line behind
 * every other object's work. Anyone else's create, edit or delete still passes. Each entry goes
 * with the next event for its object, matching or not, so nothing outlives the object.
 */
export class OwnWrites {
  readonly #cache: Pick<Informer<KubeObject>, 'getByKey'>;
  /** Per object (namespace/name): the version our last such write made, until its event comes. */
  readonly #written = new Map<string, string>();

  constructor(options: { cache: Pick<Informer<KubeObject>, 'getByKey'> }) {
    this.#cache = options.cache;
  }

  /** The object as a write returned it. */
  remember(written: KubeObject): void {
    const version = written.metadata.resourceVersion;
    if (version === undefined) return;
    // The watch may have delivered the write before its response came: then no event is left
    // to take the entry away, so none is kept.
    if (this.#cache.getByKey(objectKey(written))?.metadata.resourceVersion === version) return;
    this.#written.set(objectKey(written), version);
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
    const written = this.#written.get(key);
    if (written === undefined) return false;
    this.#written.delete(key);
    return written === object.metadata.resourceVersion;
  }
}
