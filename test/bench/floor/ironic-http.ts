// The floor's Ironic client: plain fetch, no operator code, every attempt counted by route
// template like the operator's ironic_client_requests_total. Node locks and 503s are retried
// at once (250 ms), as fast as Ironic allows. At most `maxInFlight` requests are open at once:
// Ironic here is one API process with its conductor inside, and a hundred simultaneous requests
// only queue there until they time out.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Totals } from '../metrics/counter-totals.ts';

export const FLOOR_MICROVERSION = '1.95';

export interface IronicCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Route template, e.g. `/v1/nodes/{node_ident}/states/provision`; `{node_ident}` is filled from `node`. */
  route: string;
  node?: string;
  query?: string;
  body?: unknown;
}

export class IronicHttpError extends Error {
  override readonly name = 'IronicHttpError';
  readonly status: number;

  constructor(call: IronicCall, status: number, text: string) {
    super(`${call.method} ${call.route}${call.node ? ` (${call.node})` : ''} -> ${status}: ${text.slice(0, 500)}`);
    this.status = status;
  }
}

export interface IronicHttp {
  request<T = unknown>(call: IronicCall): Promise<T>;
  /** Requests sent so far, by `METHOD route`. */
  counts(): Totals;
  /** Seconds requests have been open at Ironic so far, summed over requests, by `METHOD route` (waits for a slot not included). */
  openSeconds(): Totals;
}

const RETRY_MS = 250;
const MAX_ATTEMPTS = 240;
const REQUEST_TIMEOUT_MS = 600_000;

/** A counting semaphore: run() waits for one of `limit` slots. */
function limiter(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: Array<() => void> = [];
  return async (work) => {
    if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    else active++;
    try {
      return await work();
    } finally {
      const next = queue.shift();
      if (next) next();
      else active--;
    }
  };
}

function retryable(status: number, text: string): boolean {
  return status === 503 || (status === 409 && /locked/i.test(text));
}

export function createIronicHttp(options: { url: string; maxInFlight?: number }): IronicHttp {
  const counts: Totals = {};
  const openMs: Totals = {};
  const slot = limiter(options.maxInFlight ?? 4);
  return {
    counts: () => ({ ...counts }),
    openSeconds: () => Object.fromEntries(Object.entries(openMs).map(([key, ms]) => [key, ms / 1000])),
    async request<T>(call: IronicCall): Promise<T> {
      const path = call.route.replace('{node_ident}', encodeURIComponent(call.node ?? ''));
      const key = `${call.method} ${call.route}`;
      for (let attempt = 1; ; attempt++) {
        counts[key] = (counts[key] ?? 0) + 1;
        const { response, text } = await slot(async () => {
          const sentAt = performance.now();
          try {
            const answer = await fetch(`${options.url}${path}${call.query ? `?${call.query}` : ''}`, {
              method: call.method,
              headers: { 'content-type': 'application/json', 'x-openstack-ironic-api-version': FLOOR_MICROVERSION },
              ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
              signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
            });
            return { response: answer, text: await answer.text() };
          } finally {
            openMs[key] = (openMs[key] ?? 0) + performance.now() - sentAt;
          }
        });
        if (response.ok) return (text ? JSON.parse(text) : undefined) as T;
        if (!retryable(response.status, text) || attempt >= MAX_ATTEMPTS) throw new IronicHttpError(call, response.status, text);
        await sleep(RETRY_MS);
      }
    },
  };
}
