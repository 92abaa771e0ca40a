// client-go's `rest_client_requests_total{code,host,method}`: every request the Kubernetes
// client sends (watches included, as GET), by status code, API server and verb.
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';

export const REST_CLIENT_REQUESTS_TOTAL = 'rest_client_requests_total';
/** Ours (client-go has none): connections the client opened, which kept-alive reuse keeps flat. */
export const REST_CLIENT_CONNECTIONS_OPENED_TOTAL = 'rest_client_connections_opened_total';

/** client-go's `code` for a request that got no HTTP response. */
export const REST_CLIENT_NO_RESPONSE = '<error>';

export interface RestClientMetrics {
  requested(sample: { method: string; host: string; code: string }): void;
  connected?(sample: { host: string }): void;
}

/** Registers the counter on `registry`, or reuses it when several clients share one registry. */
export function createRestClientMetrics(registry: Registry): RestClientMetrics {
  const counter =
    (registry.getSingleMetric(REST_CLIENT_REQUESTS_TOTAL) as Counter<'code' | 'host' | 'method'> | undefined) ??
    new Counter({
      name: REST_CLIENT_REQUESTS_TOTAL,
      help: 'Number of HTTP requests, partitioned by status code, method, and host.',
      labelNames: ['code', 'host', 'method'] as const,
      registers: [registry],
    });
  const connections =
    (registry.getSingleMetric(REST_CLIENT_CONNECTIONS_OPENED_TOTAL) as Counter<'host'> | undefined) ??
    new Counter({
      name: REST_CLIENT_CONNECTIONS_OPENED_TOTAL,
      help: 'Number of connections the client opened to the API server, by host.',
      labelNames: ['host'] as const,
      registers: [registry],
    });
  return {
    requested: ({ method, host, code }) => counter.inc({ code, host, method }),
    connected: ({ host }) => connections.inc({ host }),
  };
}
