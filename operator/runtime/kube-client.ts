import { ApiException, HttpMethod, RequestContext, createConfiguration } from '@kubernetes/client-node';
import type { HttpLibrary, KubeConfig, ResponseContext } from '@kubernetes/client-node';
import { KubeStatusError } from './kube-errors.ts';
import type { KubeStatus } from './kube-errors.ts';
import { REST_CLIENT_NO_RESPONSE } from './rest-client-metrics.ts';
import { requestTarget } from './request-target.ts';
import type { RequestTarget } from './request-target.ts';
import { shareDispatcher, watchWithInactivityTimeout } from './client-node-seam.ts';
import type { RestClientMetrics } from './rest-client-metrics.ts';

export type QueryValue = string | number | boolean | undefined;

export interface KubeRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  /** Defaults to `application/json`; patches need their own (see PATCH_CONTENT_TYPES). */
  contentType?: string;
  signal?: AbortSignal;
  /** Per-request deadline; a hung call would otherwise block a worker forever. */
  timeoutMs?: number;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

export interface RawWatchEvent {
  type: WatchEventType;
  object: unknown;
}

export interface WatchRequest {
  path: string;
  query?: Record<string, QueryValue>;
  signal: AbortSignal;
}

/**
 * The smallest HTTP surface the runtime needs from the API server. Everything above it
 * (resource clients, informers, leases, events) is written against this interface, so tests
 * can substitute an in-memory fake.
 */
export interface KubeTransport {
  request<T = unknown>(request: KubeRequest): Promise<T>;
  /**
   * Streams watch events until the server closes the watch (resolves), the signal aborts
   * (resolves), or the watch fails (rejects; ERROR events reject with a KubeStatusError).
   */
  watch(request: WatchRequest, onEvent: (event: RawWatchEvent) => void): Promise<void>;
}

export interface KubeClientOptions {
  /** Applied when a request has no `timeoutMs`. */
  defaultTimeoutMs?: number;
  userAgent?: string;
  /** Counts every request (client-go's `rest_client_requests_total`); none when omitted. */
  metrics?: RestClientMetrics;
}

/**
 * A JSON-in/JSON-out client on top of client-node's auth and undici transport. It
 * bypasses the generated APIs on purpose: their ObjectSerializer drops fields it does not
 * know (custom resources, CRD schemas) and turns timestamps into Dates.
 */
export class KubeClient implements KubeTransport {
  readonly kubeConfig: KubeConfig;
  readonly #server: string;
  readonly #http: HttpLibrary;
  readonly #defaultTimeoutMs: number;
  readonly #userAgent: string;
  readonly #metrics: RestClientMetrics | undefined;
  readonly #host: string;

  constructor(kubeConfig: KubeConfig, options: KubeClientOptions = {}) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    this.#server = cluster.server.replace(/\/+$/, '');
    this.#host = new URL(this.#server).host;
    this.kubeConfig = shareDispatcher(kubeConfig, {
      ...(options.metrics?.connected ? { onConnect: () => options.metrics?.connected?.({ host: this.#host }) } : {}),
    });
    this.#http = createConfiguration().httpApi;
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? 60_000;
    this.#userAgent = options.userAgent ?? 'metal3-ts-runtime';
    this.#metrics = options.metrics;
  }

  #count(method: string, code: number | string, target: RequestTarget): void {
    this.#metrics?.requested({ method, host: this.#host, code: String(code), target });
  }

  async request<T = unknown>(request: KubeRequest): Promise<T> {
    const url = new URL(this.#server + request.path);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const context = new RequestContext(url.toString(), HttpMethod[request.method]);
    context.setHeaderParam('Accept', 'application/json');
    context.setHeaderParam('User-Agent', this.#userAgent);
    if (request.body !== undefined) {
      context.setHeaderParam('Content-Type', request.contentType ?? 'application/json');
      context.setBody(JSON.stringify(request.body));
    }
    const target = requestTarget(request);
    const timeout = AbortSignal.timeout(request.timeoutMs ?? this.#defaultTimeoutMs);
    context.setSignal(request.signal ? AbortSignal.any([request.signal, timeout]) : timeout);
    await this.kubeConfig.applySecurityAuthentication(context);

    let response: ResponseContext;
    try {
      response = await this.#http.send(context).toPromise();
    } catch (error) {
      this.#count(request.method, REST_CLIENT_NO_RESPONSE, target);
      throw error;
    }
    this.#count(request.method, response.httpStatusCode, target);
    const text = await response.body.text();
    if (response.httpStatusCode < 200 || response.httpStatusCode > 299) {
      // Same shape as the generated clients throw, so toKubeError handles both.
      throw new ApiException(response.httpStatusCode, `${request.method} ${request.path} failed`, text, response.headers);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  watch(request: WatchRequest, onEvent: (event: RawWatchEvent) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      let connection: AbortController | undefined;
      const finish = (error?: unknown): void => {
        if (settled) return;
        settled = true;
        request.signal.removeEventListener('abort', onAbort);
        connection?.abort();
        if (error) reject(error);
        else resolve();
      };
      const onAbort = (): void => finish();
      if (request.signal.aborted) {
        finish();
        return;
      }
      request.signal.addEventListener('abort', onAbort, { once: true });

      // With a server-side timeout (and bookmarks) the server ends a quiet watch; without one,
      // client-node's 30 s of silence does, and the informer resumes from its resourceVersion.
      const target = requestTarget({ method: 'GET', path: request.path, watch: true });
      const serverTimeoutSeconds = Number(request.query?.timeoutSeconds ?? 0);
      const watcher = watchWithInactivityTimeout(this.kubeConfig, serverTimeoutSeconds > 0 ? (serverTimeoutSeconds + 30) * 1000 : 0);
      // client-node reports a refused or failed watch request through the done callback
      // before its promise resolves; otherwise the watch was established (200).
      let endedEarly: unknown;
      watcher
        .watch(
          request.path,
          request.query ?? {},
          (type: string, object: unknown) => {
            if (settled) return;
            if (type === 'ERROR') {
              finish(new KubeStatusError(object as KubeStatus));
              return;
            }
            try {
              onEvent({ type: type as WatchEventType, object });
            } catch (error) {
              finish(error);
            }
          },
          (error: unknown) => {
            if (connection === undefined) endedEarly = error ?? null;
            // client-node ends quiet watches with a TimeoutError after 30 s of silence;
            // that is a normal end, resumed from the last resourceVersion.
            if (!error || isTimeoutError(error)) finish();
            else finish(error);
          },
        )
        .then(
          (controller) => {
            this.#count('GET', endedEarly ? (statusCodeOf(endedEarly) ?? REST_CLIENT_NO_RESPONSE) : 200, target);
            connection = controller;
            if (settled) controller.abort();
          },
          (error: unknown) => {
            this.#count('GET', statusCodeOf(error) ?? REST_CLIENT_NO_RESPONSE, target);
            finish(error);
          },
        );
    });
  }
}

function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { statusCode } = error as { statusCode?: unknown };
  return typeof statusCode === 'number' ? statusCode : undefined;
}

function isTimeoutError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'TimeoutError';
}
