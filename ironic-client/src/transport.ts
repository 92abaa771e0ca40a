// Sends one typed operation: fills the route, adds the microversion and auth headers, retries
// transient failures, records metrics and maps failures to typed errors.
import { performance } from 'node:perf_hooks';
import { isAxiosError } from 'axios';
import type { AxiosInstance, AxiosResponse } from 'axios';
import type { Material } from './connection-material.ts';
import { errorFromResponse } from './error-body.ts';
import { IronicConnectionError, IronicError } from './errors.ts';
import type { IronicRequestInfo } from './errors.ts';
import { NO_RESPONSE_CODE } from './metrics.ts';
import type { RequestMetrics } from './metrics.ts';
import type { CallInput, HttpMethod, Operation, RouteFor, SuccessBody } from './openapi.ts';
import { buildQuery, fillRoute } from './request-url.ts';
import type { QueryValue } from './request-url.ts';
import { backoffDelayMs, isRetryable, sleep } from './retry.ts';
import type { RetryPolicy } from './retry.ts';

export const MICROVERSION_HEADER = 'X-OpenStack-Ironic-API-Version';

export interface TransportConfig {
  http: AxiosInstance;
  baseUrl: string;
  /** Credentials and TLS agents for the next request (read again from their files now and then). */
  material: { current(): Promise<Material> };
  retry: RetryPolicy;
  metrics: RequestMetrics;
  beforeWrite?: ((request: { method: string; route: string }) => void) | undefined;
}

export interface CallResult<T> {
  status: number;
  data: T;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  request: IronicRequestInfo;
}

export interface CallOptions {
  /** Send without a microversion header; only version discovery does this. */
  unversioned?: boolean;
}

interface RawInput {
  path?: Record<string, string>;
  query?: Record<string, QueryValue>;
  body?: unknown;
}

function headerRecord(response: AxiosResponse): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    if (value !== undefined && value !== null) result[name.toLowerCase()] = String(value);
  }
  return result;
}

export class Transport {
  readonly #http: AxiosInstance;
  readonly #material: { current(): Promise<Material> };
  readonly #retry: RetryPolicy;
  readonly #metrics: RequestMetrics;
  readonly #beforeWrite: ((request: { method: string; route: string }) => void) | undefined;
  readonly baseUrl: string;
  #microversion: string | undefined;

  constructor(config: TransportConfig) {
    this.#http = config.http;
    this.#material = config.material;
    this.#retry = config.retry;
    this.#metrics = config.metrics;
    this.#beforeWrite = config.beforeWrite;
    this.baseUrl = config.baseUrl;
  }

  get microversion(): string | undefined {
    return this.#microversion;
  }

  /** Pins the microversion sent on every later request. */
  useMicroversion(version: string): void {
    this.#microversion = version;
  }

  async call<M extends HttpMethod, R extends RouteFor<M>>(
    method: M,
    route: R,
    input: CallInput<Operation<R, M>>,
    options: CallOptions = {},
  ): Promise<CallResult<SuccessBody<Operation<R, M>>>> {
    const raw = input as RawInput;
    const microversion = options.unversioned ? undefined : this.#microversion;
    const url = `${this.baseUrl}${fillRoute(route, raw.path)}${buildQuery(raw.query)}`;
    const request: IronicRequestInfo = { method: method.toUpperCase(), route, url, ...(microversion ? { microversion } : {}) };
    const headers: Record<string, string> = {};
    if (microversion) headers[MICROVERSION_HEADER] = microversion;

    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(request, headers, raw.body, attempt);
      if (!(outcome instanceof IronicError)) {
        return { ...outcome, request } as CallResult<SuccessBody<Operation<R, M>>>;
      }
      if (attempt >= this.#retry.maxAttempts || !isRetryable(outcome, request.method)) throw outcome;
      await sleep(backoffDelayMs(attempt, this.#retry));
    }
  }

  async #attempt(
    request: IronicRequestInfo,
    headers: Record<string, string>,
    body: unknown,
    attempt: number,
  ): Promise<Omit<CallResult<unknown>, 'request'> | IronicError> {
    // Each retry too: the caller may have lost the right to write while the last attempt waited.
    if (request.method !== 'GET' && request.method !== 'HEAD') this.#beforeWrite?.(request);
    const started = performance.now();
    const observe = (code: string) =>
      this.#metrics.observe({ method: request.method, route: request.route, code, seconds: (performance.now() - started) / 1000 });
    let response: AxiosResponse;
    try {
      // Each attempt takes the material as it is then: a retry after a rotation uses the new one.
      const { authorization, agents } = await this.#material.current();
      response = await this.#http.request({
        method: request.method, url: request.url, data: body,
        headers: authorization ? { ...headers, Authorization: authorization } : headers,
        httpAgent: agents.httpAgent, httpsAgent: agents.httpsAgent,
      });
    } catch (error) {
      observe(NO_RESPONSE_CODE);
      if (!isAxiosError(error)) throw error;
      return new IronicConnectionError(error.message, error.code, request, attempt);
    }
    observe(String(response.status));
    if (response.status >= 200 && response.status < 300) {
      // Bodiless 202/204 responses come back from axios as an empty string.
      const data = response.data === '' ? undefined : response.data;
      return { status: response.status, data, headers: headerRecord(response) };
    }
    return errorFromResponse(response.status, response.data, request, attempt);
  }
}
