import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { KubeConfig } from './kube-config.ts';
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { Clock } from './clock.ts';
import { sleep, systemClock } from './clock.ts';
import type { Controller } from './controller.ts';
import { ControllerBuilder } from './controller-builder.ts';
import { LeaderElectionLostError } from './errors.ts';
import { createEventRecorder } from './event-recorder.ts';
import type { EventObject, EventRecorder } from './event-recorder.ts';
import { HealthChecks } from './health.ts';
import type { Check } from './health.ts';
import type { BindAddress, RunningServer } from './http-server.ts';
import { Informer, withoutManagedFields } from './informer.ts';
import { cachedObjectStrings } from './string-interner.ts';
import { KubeClient } from './kube-client.ts';
import { createRestClientMetrics } from './rest-client-metrics.ts';
import type { KubeTransport } from './kube-client.ts';
import type { KubeObject, ResourceType } from './kube-object.ts';
import { LeaderElector } from './leader-election.ts';
import type { Lease } from './leader-election.ts';
import { LeadershipFence, fencedTransport } from './leadership-fence.ts';
import { listerWatcherFor } from './lister-watcher.ts';
import { startManagerServers } from './manager-servers.ts';
import type { ManagerServerName } from './manager-servers.ts';
import { createLogger } from './logger.ts';
import type { Logger } from './logger.ts';
import { createRuntimeMetrics } from './metrics.ts';
import type { RuntimeMetrics } from './metrics.ts';
import { createResourceClient } from './resource-client.ts';
import type { ResourceClient } from './resource-client.ts';
import { EventResource, LeaseResource } from './resources.ts';
import type { RuntimeOptions } from './runtime-options.ts';
import { watchedNamespaces } from './runtime-options.ts';
import { MetricsAccessReviewer } from './metrics-access.ts';
import { selfSignedCertificate } from './self-signed-certificate.ts';
import { readServingCertificate } from './serving-certificate.ts';
import type { TlsPolicy } from './tls-policy.ts';

/** Anything the manager starts and stops with itself. */
export interface Runnable {
  /** Runs until `signal` aborts, then finishes its work and resolves. */
  start(signal: AbortSignal): Promise<void>;
  /** Only run on the elected leader (default true, like controllers). */
  needLeaderElection?: boolean;
}

export interface ManagerOptions {
  /** Component name: default field manager, log `component`, Lease identity prefix. */
  name: string;
  options: RuntimeOptions;
  kubeConfig?: KubeConfig;
  /** Instead of a kubeconfig, e.g. an in-memory fake in tests. */
  transport?: KubeTransport;
  /** A fresh one (with Node.js default metrics) when omitted; never the global registry. */
  registry?: Registry;
  logger?: Logger;
  clock?: Clock;
  /** Leader identity; default `<pod name or host name>_<uuid>`. */
  identity?: string;
  /** What the secure metrics server accepts (BMO and Cluster API pass their --tls-* flags to it as to the webhooks). */
  metricsTlsPolicy?: TlsPolicy;
}

export interface InformerSelector {
  /** Default: the manager's watch namespace (all namespaces when unset). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

const IN_CLUSTER_NAMESPACE_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

function inClusterNamespace(): string | undefined {
  return existsSync(IN_CLUSTER_NAMESPACE_FILE) ? readFileSync(IN_CLUSTER_NAMESPACE_FILE, 'utf8').trim() || undefined : undefined;
}

/**
 * The composition root's helper (controller-runtime `Manager`): owns the API transport,
 * metrics registry, logger, shared informers, controllers, leader election and the probe
 * and metrics servers, and runs them all until a signal asks it to stop.
 */
/**
 * How often the event-loop delay histogram samples (prom-client's default is 10 ms). Its timer
 * wakes the process at that rate for as long as it runs: at 10 ms that alone was ~0.25 CPU s a
 * minute, all of an idle operator's CPU and ~15 % of a 10-host Redfish run's. Stalls that matter
 * here last far longer than half a second and still show in the histogram's max and percentiles.
 */
export const EVENT_LOOP_MONITORING_PRECISION_MS = 500;

export class Manager {
  readonly name: string;
  readonly options: RuntimeOptions;
  /** What controllers and event recorders use; with leader election, fenced by the Lease. */
  readonly transport: KubeTransport;
  readonly registry: Registry;
  readonly logger: Logger;
  readonly metrics: RuntimeMetrics;
  readonly clock: Clock;
  readonly identity: string;
  readonly healthz = new HealthChecks('healthz');
  readonly readyz = new HealthChecks('readyz');
  readonly #informers = new Map<string, Informer<KubeObject>>();
  readonly #clients = new Map<string, ResourceClient<KubeObject>>();
  readonly #controllers: Controller[] = [];
  readonly #runnables: Runnable[] = [];
  /** Event writes are queued off the reconcile path; a graceful stop waits for them. */
  readonly #eventRecorders: EventRecorder[] = [];
  /** The Lease's own requests bypass the fence: they are what opens it (and the metrics server's reviews, which write nothing). */
  readonly #leaseTransport: KubeTransport;
  readonly #fence: LeadershipFence;
  readonly #metricsTlsPolicy: TlsPolicy | undefined;
  #servers = new Map<ManagerServerName, RunningServer>();
  #leading = false;
  #started = false;

  constructor(options: ManagerOptions) {
    this.name = options.name;
    this.options = options.options;
    this.#metricsTlsPolicy = options.metricsTlsPolicy;
    if (options.registry) this.registry = options.registry;
    else {
      this.registry = new Registry();
      collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_MONITORING_PRECISION_MS });
    }
    let apiTransport: KubeTransport;
    if (options.transport) apiTransport = this.#leaseTransport = options.transport;
    else if (options.kubeConfig) {
      const { kubeApiQps, kubeApiBurst } = options.options;
      const metrics = createRestClientMetrics(this.registry);
      const client = () => new KubeClient(options.kubeConfig as KubeConfig, {
        userAgent: options.name, metrics, ...(kubeApiQps !== undefined ? { rateLimit: { qps: kubeApiQps, burst: kubeApiBurst } } : {}),
      });
      apiTransport = client();
      // Renewals must not queue behind a throttled backlog (--kube-api-qps), or the Lease would
      // lapse while busy: they get a client and a bucket of their own, as controller-runtime's do.
      this.#leaseTransport = kubeApiQps !== undefined ? client() : apiTransport;
    } else throw new Error('Manager needs a kubeConfig or a transport');
    this.clock = options.clock ?? systemClock;
    this.#fence = new LeadershipFence(this.clock);
    // A replica that may have lost its Lease (frozen, partitioned) must not write: another may lead.
    this.transport = this.options.leaderElect ? fencedTransport(apiTransport, this.#fence) : apiTransport;
    this.logger = options.logger ?? createLogger({ level: options.options.logLevel, defaultMeta: { component: options.name } });
    this.metrics = createRuntimeMetrics(this.registry);
    this.identity = options.identity ?? `${options.options.podName ?? hostname()}_${randomUUID()}`;
    this.healthz.add('ping', () => {});
    this.readyz.add('ping', () => {});
    this.readyz.add('informers', () => {
      // A standby is ready (it serves metrics and waits); a leader once its caches are filled.
      const unsynced = [...this.#informers.values()].filter((i) => i.isRunning && !i.hasSynced()).map((i) => i.name);
      if (unsynced.length) throw new Error(`not synced: ${unsynced.join(', ')}`);
    });
  }

  /** A plain-JSON client for a kind, writing with this manager's field manager. */
  client<T extends KubeObject = KubeObject>(resource: ResourceType): ResourceClient<T> {
    const key = `${resource.group}/${resource.version}/${resource.plural}`;
    let client = this.#clients.get(key);
    if (!client) {
      client = createResourceClient(this.transport, resource, { fieldManager: this.name });
      this.#clients.set(key, client);
    }
    return client as unknown as ResourceClient<T>;
  }

  /** The shared informer for a kind and selector; started with the controllers. */
  informer<T extends KubeObject = KubeObject>(resource: ResourceType, selector: InformerSelector = {}): Informer<T> {
    const namespaces = !resource.namespaced ? [] : selector.namespace !== undefined ? [selector.namespace] : watchedNamespaces(this.options.watchNamespace);
    const key = [resource.group, resource.plural, namespaces.join(','), selector.labelSelector ?? '', selector.fieldSelector ?? ''].join('|');
    let informer = this.#informers.get(key);
    if (!informer) {
      if (this.#started) throw new Error(`informer for ${resource.kind} requested after the manager started`);
      const listerWatcher = (namespace: string | undefined) => listerWatcherFor(this.client(resource), { ...selector, namespace });
      informer = new Informer<KubeObject>({
        name: resource.kind,
        // Several watched namespaces: one list+watch each, as controller-runtime's multi-namespace cache.
        ...(namespaces.length > 1
          ? { perNamespace: new Map(namespaces.map((namespace) => [namespace, listerWatcher(namespace)])) }
          : { listerWatcher: listerWatcher(namespaces[0]) }),
        resyncPeriodMs: this.options.syncPeriodMs,
        clock: this.clock,
        logger: this.logger,
        transform: (object) => cachedObjectStrings.internAll(withoutManagedFields(object)),
      });
      this.#informers.set(key, informer);
    }
    return informer as unknown as Informer<T>;
  }

  /** Records events.k8s.io/v1 Events as `reportingController` from this replica. */
  eventRecorder(reportingController: string): EventRecorder {
    const recorder = createEventRecorder({
      events: this.client<EventObject>(EventResource),
      reportingController,
      reportingInstance: this.options.podName ?? hostname(),
      clock: this.clock,
      logger: this.logger.child({ component: 'events' }),
    });
    this.#eventRecorders.push(recorder);
    return recorder;
  }

  /** Starts a controller definition: `.for(...)`, `.owns(...)`, `.watches(...)`, `.complete(reconciler)`. */
  controller(name: string): ControllerBuilder {
    return new ControllerBuilder(this, name);
  }

  addController(controller: Controller): void {
    if (this.#started) throw new Error('controllers must be added before the manager starts');
    if (this.#controllers.some((c) => c.name === controller.name)) {
      throw new Error(`a controller named ${controller.name} already exists`);
    }
    this.#controllers.push(controller);
  }

  add(runnable: Runnable): void {
    if (this.#started) throw new Error('runnables must be added before the manager starts');
    this.#runnables.push(runnable);
  }

  addHealthzCheck(name: string, check: Check): void {
    this.healthz.add(name, check);
  }

  addReadyzCheck(name: string, check: Check): void {
    this.readyz.add(name, check);
  }

  isLeader(): boolean {
    return this.#leading;
  }

  /** Whether this replica may change anything now (always, without leader election); for writes outside Kubernetes. */
  mayWrite(): boolean {
    return !this.options.leaderElect || this.#fence.allowsWrites();
  }

  /**
   * Runs until `signal` aborts, then shuts down in order: controllers stop taking work and
   * drain (bounded by the graceful shutdown timeout), informers stop, the lease is released,
   * servers close. Rejects with LeaderElectionLostError if the lease was lost; the process
   * should then exit, as controller-runtime's does.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) throw new Error('the manager was already started');
    this.#started = true;
    this.logger.info('starting manager', { identity: this.identity, leaderElect: this.options.leaderElect });
    const servers = await startManagerServers({
      healthProbeBindAddress: this.options.healthProbeBindAddress,
      metricsBindAddress: this.options.metricsBindAddress,
      healthz: this.healthz,
      readyz: this.readyz,
      registry: this.registry,
      logger: this.logger,
      ...(this.options.metricsSecure && this.options.metricsBindAddress ? { metricsSecurity: this.#metricsSecurity() } : {}),
    });
    this.#servers = servers;
    const always = this.#runnables.filter((r) => r.needLeaderElection === false);
    const alwaysRunning = always.map((r) => r.start(signal));
    let lost = false;
    try {
      if (this.options.leaderElect) {
        const elector = this.#createElector();
        if (await elector.acquire(signal)) {
          const leaderScope = new AbortController();
          const stopRenewing = new AbortController();
          const onStop = (): void => leaderScope.abort();
          signal.addEventListener('abort', onStop, { once: true });
          const renewing = elector.renewUntilLost(stopRenewing.signal).then((outcome) => {
            if (outcome === 'lost') {
              lost = true;
              leaderScope.abort();
            }
          });
          try {
            // Leadership lost: another replica may already write, so in-flight work is abandoned, not drained
            // (controller-runtime skips its graceful shutdown too); the process is expected to exit.
            await this.#lead(leaderScope.signal, { drain: () => !lost });
          } finally {
            signal.removeEventListener('abort', onStop);
            // Queued events are written while the Lease is still ours (the fence shuts on release).
            if (!lost) await this.#flushEvents();
            stopRenewing.abort();
            await renewing;
            if (!lost) await elector.release();
          }
        }
      } else {
        await this.#lead(signal);
      }
      await this.#bounded(Promise.all(alwaysRunning), 'runnables');
      // A replica that lost its Lease writes nothing more, events included; a leader flushed them above.
      if (!this.options.leaderElect) await this.#flushEvents();
    } finally {
      await Promise.all([...servers.values()].map((s) => s.close()));
      this.#servers = new Map();
      this.logger.info('manager stopped');
    }
    if (lost) throw new LeaderElectionLostError('leader election lost');
  }

  /** Runs informers, controllers and leader-only runnables until `scope` aborts, then drains them. */
  async #lead(scope: AbortSignal, options: { drain: () => boolean } = { drain: () => true }): Promise<void> {
    this.#leading = true;
    const informerScope = new AbortController();
    try {
      for (const controller of this.#controllers) for (const informer of controller.informers) this.#trackInformer(informer);
      const informersRunning = [...this.#informers.values()].map((i) => i.run(informerScope.signal));
      const work = [
        ...this.#controllers.map((c) => c.start(scope)),
        ...this.#runnables.filter((r) => r.needLeaderElection !== false).map((r) => r.start(scope)),
      ];
      await new Promise<void>((resolve) => {
        if (scope.aborted) resolve();
        else scope.addEventListener('abort', () => resolve(), { once: true });
      });
      if (options.drain()) {
        this.logger.info('stopping controllers; waiting for in-flight reconciles');
        // Informers keep running while controllers drain, so in-flight reconciles can still read.
        await this.#bounded(Promise.all(work), 'controllers');
      } else {
        this.logger.error('leadership lost; abandoning in-flight reconciles');
      }
      informerScope.abort();
      await Promise.all(informersRunning);
    } finally {
      informerScope.abort();
      this.#leading = false;
    }
  }

  async #flushEvents(): Promise<void> {
    await this.#bounded(Promise.all(this.#eventRecorders.map((r) => r.flush())), 'queued event writes');
  }

  /** Controllers built by hand may watch informers the manager did not create; run those too. */
  #trackInformer(informer: Informer<KubeObject>): void {
    if (![...this.#informers.values()].includes(informer)) this.#informers.set(`unshared|${this.#informers.size}`, informer);
  }

  async #bounded(work: Promise<unknown>, what: string): Promise<void> {
    const timeoutMs = this.options.gracefulShutdownTimeoutMs;
    const cancel = new AbortController();
    let timedOut = false;
    await Promise.race([
      work.then(() => cancel.abort()),
      sleep(this.clock, timeoutMs, cancel.signal).then(() => {
        if (!cancel.signal.aborted) timedOut = true;
      }),
    ]);
    cancel.abort();
    if (timedOut) this.logger.warn(`graceful shutdown timed out; abandoning ${what}`, { timeoutMs });
  }

  /** The certificate (mounted, or made now as controller-runtime makes one) and the reviews behind it, through the unfenced client: a standby serves metrics too. */
  #metricsSecurity(): { tls: { cert: string | Buffer; key: string | Buffer; policy?: TlsPolicy; certDir?: string }; reviewer: MetricsAccessReviewer } {
    const dir = this.options.metricsCertPath;
    const pair = dir ? readServingCertificate(dir) : selfSignedCertificate({ commonName: `${this.name}-metrics`, names: ['localhost', '127.0.0.1', '::1', hostname()] });
    const tls = { ...pair, ...(dir ? { certDir: dir } : {}), ...(this.#metricsTlsPolicy ? { policy: this.#metricsTlsPolicy } : {}) };
    return { tls, reviewer: new MetricsAccessReviewer({ transport: this.#leaseTransport, logger: this.logger, clock: this.clock }) };
  }

  #createElector(): LeaderElector {
    const namespace =
      this.options.leaderElectionNamespace ?? this.options.podNamespace ?? inClusterNamespace() ?? 'default';
    const status = this.metrics.leaderElection(this.options.leaderElectionId);
    status.setLeading(false);
    return new LeaderElector({
      leases: createResourceClient<Lease>(this.#leaseTransport, LeaseResource, { fieldManager: this.name }),
      namespace,
      name: this.options.leaderElectionId,
      identity: this.identity,
      leaseDurationMs: this.options.leaseDurationMs,
      renewDeadlineMs: this.options.renewDeadlineMs,
      retryPeriodMs: this.options.retryPeriodMs,
      clock: this.clock,
      logger: this.logger,
      onLeadingChange: (leading) => status.setLeading(leading),
      fence: this.#fence,
    });
  }

  /** Where a server actually listens (a port of 0 picks a free one); undefined when disabled or stopped. */
  serverAddress(server: ManagerServerName): BindAddress | undefined {
    return this.#servers.get(server)?.address;
  }
}
