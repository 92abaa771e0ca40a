// The floor's Ironic client: plain fetch, no operator code, every attempt counted by route
// template like the operator's ironic_client_requests_total. Node locks and 503s are retried
// at once (250 ms), as fast as Ironic allows.
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
}

const RETRY_MS = 250;
const MAX_ATTEMPTS = 240;

function retryable(status: number, text: string): boolean {
  return status === 503 || (status === 409 && /locked/i.test(text));
}

export function createIronicHttp(options: { url: string }): IronicHttp {
  const counts: Totals = {};
  return {
    counts: () => ({ ...counts }),
    async request<T>(call: IronicCall): Promise<T> {
      const path = call.route.replace('{node_ident}', encodeURIComponent(call.node ?? ''));
      const key = `${call.method} ${call.route}`;
      for (let attempt = 1; ; attempt++) {
        counts[key] = (counts[key] ?? 0) + 1;
        const response = await fetch(`${options.url}${path}${call.query ? `?${call.query}` : ''}`, {
          method: call.method,
          headers: { 'content-type': 'application/json', 'x-openstack-ironic-api-version': FLOOR_MICROVERSION },
          ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
          signal: AbortSignal.timeout(120_000),
        });
        const text = await response.text();
        if (response.ok) return (text ? JSON.parse(text) : undefined) as T;
        if (!retryable(response.status, text) || attempt >= MAX_ATTEMPTS) throw new IronicHttpError(call, response.status, text);
        await sleep(RETRY_MS);
      }
    },
  };
}
