import type { IncomingMessage } from 'node:http';
import { sleep, systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import type { KubeConfig } from './kube-config.ts';
import { JsonLineSplitter, KubeConnection, readText } from './kube-connection.ts';
import type { KubeRateLimit } from './kube-connection.ts';
import { KubeStatusError } from './kube-errors.ts';
import type { KubeStatus } from './kube-errors.ts';
import { REST_CLIENT_NO_RESPONSE } from './rest-client-metrics.ts';
import { requestDeadline } from './request-deadline.ts';
import { requestTarget } from './request-target.ts';
import type { RequestTarget } from './request-target.ts';
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
  /** client-go's client-side QPS and burst; no limit when omitted. */
  rateLimit?: KubeRateLimit;
  /** What waits for a `Retry-After` run on; the process clock by default. */
  clock?: Clock;
}

/** A failed request: the HTTP status and the response text (a `metav1.Status` as JSON), as toKubeError reads them. */
export class KubeHttpError extends Error {
  readonly code: number;
  readonly body: string;

  constructor(code: number, message: string, body: string) {
    super(message);
    this.name = 'KubeHttpError';
    this.code = code;
    this.body = body;
  }
}

/**
 * client-go's default: an answer 429 or 5xx that carries `Retry-After` (API Priority and
 * Fairness, a watch cache still initializing) is waited out and the request sent again, at most
 * this many times, before the error reaches the caller.
 */
const MAX_RETRY_AFTER_RETRIES = 10;

/** The seconds a 429 or 5xx answer asks the client to wait, as client-go reads them; undefined when it asks for no retry. */
function retryAfterSeconds(status: number, header: string | string[] | undefined): number | undefined {
  if (status !== 429 && status < 500) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** How long a watch may stay silent when the server does not end it itself (client-node's figure). */
const WATCH_INACTIVITY_MS = 30_000;

/**
 * A JSON-in/JSON-out client on Node's own HTTP (kube-connection.ts). It has no generated
 * APIs on purpose: client-node's ObjectSerializer drops fields it does not know (custom
 * resources, CRD schemas) and turns timestamps into Dates, and its index costs ~80 MiB.
 */
export class KubeClient implements KubeTransport {
  readonly kubeConfig: KubeConfig;
  readonly #connection: KubeConnection;
  readonly #defaultTimeoutMs: number;
  readonly #userAgent: string;
  readonly #metrics: RestClientMetrics | undefined;
  readonly #host: string;
  readonly #clock: Clock;

  constructor(kubeConfig: KubeConfig, options: KubeClientOptions = {}) {
    this.kubeConfig = kubeConfig;
    const connected = options.metrics?.connected;
    let host = '';
    this.#connection = new KubeConnection(kubeConfig, {
      ...(connected ? { onConnect: () => connected({ host }) } : {}),
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    });
    host = new URL(this.#connection.server).host;
    this.#host = host;
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? 60_000;
    this.#userAgent = options.userAgent ?? 'metal3-ts-runtime';
    this.#metrics = options.metrics;
    this.#clock = options.clock ?? systemClock;
  }

  #count(method: string, code: number | string, target: RequestTarget): void {
    this.#metrics?.requested({ method, host: this.#host, code: String(code), target });
  }

  #url(path: string, query: Record<string, QueryValue> | undefined): URL {
    const url = new URL(this.#connection.server + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  async request<T = unknown>(request: KubeRequest): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': this.#userAgent };
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['Content-Type'] = request.contentType ?? 'application/json';
      body = JSON.stringify(request.body);
    }
    const target = requestTarget(request);
    // One deadline for every attempt, as client-go's request context.
    const deadline = requestDeadline({ timeoutMs: request.timeoutMs ?? this.#defaultTimeoutMs, ...(request.signal ? { signal: request.signal } : {}) });
    const url = this.#url(request.path, request.query);
    let status: number;
    let text: string;
    try {
      for (let retries = 0; ; retries++) {
        let retryAfter: string | string[] | undefined;
        try {
          const response = await this.#connection.send({ method: request.method, url, headers, signal: deadline.signal, ...(body === undefined ? {} : { body }) });
          status = response.statusCode ?? 0;
          retryAfter = response.headers['retry-after'];
          text = await readText(response);
        } catch (error) {
          this.#count(request.method, REST_CLIENT_NO_RESPONSE, target);
          throw error;
        }
        this.#count(request.method, status, target);
        const waitSeconds = retryAfterSeconds(status, retryAfter);
        if (waitSeconds === undefined || retries >= MAX_RETRY_AFTER_RETRIES) break;
        await sleep(this.#clock, waitSeconds * 1000, deadline.signal);
        if (deadline.signal.aborted) throw deadline.signal.reason as Error;
      }
    } finally {
      deadline.done();
    }
    if (status < 200 || status > 299) throw new KubeHttpError(status, `${request.method} ${request.path} failed`, text);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  watch(request: WatchRequest, onEvent: (event: RawWatchEvent) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      let inactivity: NodeJS.Timeout | undefined;
      const connection = new AbortController();
      let response: IncomingMessage | undefined;
      const finish = (error?: unknown): void => {
        if (settled) return;
        settled = true;
        clearTimeout(inactivity);
        request.signal.removeEventListener('abort', onAbort);
        connection.abort();
        response?.destroy();
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
      // 30 s of silence does, and the informer resumes from its resourceVersion.
      const target = requestTarget({ method: 'GET', path: request.path, watch: true });
      const serverTimeoutSeconds = Number(request.query?.timeoutSeconds ?? 0);
      const inactivityMs = serverTimeoutSeconds > 0 ? Math.max(WATCH_INACTIVITY_MS, (serverTimeoutSeconds + 30) * 1000) : WATCH_INACTIVITY_MS;
      const stillActive = (): void => {
        clearTimeout(inactivity);
        inactivity = setTimeout(() => finish(), inactivityMs);
        inactivity.unref();
      };
      stillActive();
      const splitter = new JsonLineSplitter();
      const deliver = (value: unknown): void => {
        if (settled) return;
        const { type, object } = (value ?? {}) as { type?: string; object?: unknown };
        if (type === 'ERROR') {
          finish(new KubeStatusError(object as KubeStatus));
          return;
        }
        try {
          onEvent({ type: type as WatchEventType, object });
        } catch (error) {
          finish(error);
        }
      };
      const headers = { Accept: 'application/json', 'User-Agent': this.#userAgent };
      this.#connection.send({ method: 'GET', url: this.#url(request.path, { ...request.query, watch: true }), headers, signal: connection.signal }, { watch: true }).then(
        async (answer) => {
          const status = answer.statusCode ?? 0;
          this.#count('GET', status, target);
          if (settled) {
            answer.destroy();
            return;
          }
          response = answer;
          if (status !== 200) {
            const text = await readText(answer).catch(() => '');
            finish(new KubeHttpError(status, `watch ${request.path} failed`, text));
            return;
          }
          answer.setEncoding('utf8');
          answer.on('data', (chunk: string) => {
            stillActive();
            splitter.push(chunk, deliver);
          });
          answer.on('end', () => {
            splitter.end(deliver);
            finish();
          });
          answer.on('error', (error) => finish(error));
          // A connection the server cut without ending the stream is a normal end too: resume.
          answer.on('close', () => finish());
        },
        (error: unknown) => {
          if (settled) return;
          this.#count('GET', REST_CLIENT_NO_RESPONSE, target);
          finish(error);
        },
      );
    });
  }
}
