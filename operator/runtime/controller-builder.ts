import { Controller } from './controller.ts';
import { requestForObject, requestsForOwner } from './event-handlers.ts';
import type { MapFunc } from './event-handlers.ts';
import type { KubeObject, ResourceType } from './kube-object.ts';
import type { InformerSelector, Manager } from './manager.ts';
import type { Predicate } from './predicates.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { ReconcileFunc, Reconciler } from './reconciler.ts';

export interface SourceOptions<T extends KubeObject = KubeObject> extends InformerSelector {
  predicates?: Predicate<T>[];
}

export interface OwnsOptions extends SourceOptions {
  /** Follow only the `controller: true` owner reference (default true). */
  controllerOnly?: boolean;
}

export interface ControllerBuildOptions {
  maxConcurrentReconciles?: number;
  rateLimiter?: RateLimiter<string>;
}

interface PendingWatch {
  resource: ResourceType;
  map: MapFunc;
  options: SourceOptions;
  primary: boolean;
}

/**
 * controller-runtime's builder:
 * `manager.controller('host').for(Host).owns(Secret).watches(Secret, mapFn).complete(reconciler)`.
 */
export class ControllerBuilder {
  readonly #manager: Manager;
  readonly #name: string;
  #primary: ResourceType | undefined;
  readonly #watches: PendingWatch[] = [];
  readonly #globalPredicates: Predicate[] = [];
  #options: ControllerBuildOptions = {};

  constructor(manager: Manager, name: string) {
    this.#manager = manager;
    this.#name = name;
  }

  /** The primary kind: its own events enqueue its own key, and resyncs reconcile it. */
  for<T extends KubeObject = KubeObject>(resource: ResourceType, options: SourceOptions<T> = {}): this {
    if (this.#primary) throw new Error(`controller ${this.#name}: for() was already called`);
    this.#primary = resource;
    this.#watches.push({ resource, map: requestForObject, options: options as SourceOptions, primary: true });
    return this;
  }

  /** A kind the primary creates and owns: events enqueue the owning primary. */
  owns(resource: ResourceType, options: OwnsOptions = {}): this {
    const owner = this.#requirePrimary('owns');
    const { controllerOnly = true, ...source } = options;
    this.#watches.push({ resource, map: requestsForOwner(owner, { controllerOnly }), options: source, primary: false });
    return this;
  }

  /** Any other kind, mapped to the keys it should wake (e.g. hosts referring to a Secret). */
  watches<T extends KubeObject = KubeObject>(resource: ResourceType, map: MapFunc<T>, options: SourceOptions<T> = {}): this {
    this.#watches.push({ resource, map: map as MapFunc, options: options as SourceOptions, primary: false });
    return this;
  }

  /** Predicates applied to every watched kind. */
  withEventFilter(predicate: Predicate): this {
    this.#globalPredicates.push(predicate);
    return this;
  }

  withOptions(options: ControllerBuildOptions): this {
    this.#options = { ...this.#options, ...options };
    return this;
  }

  /** Builds the controller and registers it with the manager. */
  complete(reconciler: Reconciler | ReconcileFunc): Controller {
    const primary = this.#requirePrimary('complete');
    const manager = this.#manager;
    const controller = new Controller({
      name: this.#name,
      kind: primary.kind,
      reconciler,
      maxConcurrentReconciles: this.#options.maxConcurrentReconciles,
      rateLimiter: this.#options.rateLimiter,
      clock: manager.clock,
      logger: manager.logger,
      metrics: manager.metrics,
    });
    for (const watch of this.#watches) {
      const { predicates = [], ...selector } = watch.options;
      controller.watch(manager.informer(watch.resource, selector), {
        map: watch.map,
        predicates: [...this.#globalPredicates, ...predicates],
        enqueueOnResync: watch.primary,
      });
    }
    manager.addController(controller);
    return controller;
  }

  #requirePrimary(step: string): ResourceType {
    if (!this.#primary) throw new Error(`controller ${this.#name}: call for() before ${step}()`);
    return this.#primary;
  }
}
