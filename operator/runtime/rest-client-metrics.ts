// client-go's `rest_client_requests_total{code,host,method}`: every request the Kubernetes
// client sends (watches included, as GET), by status code, API server and verb.
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import type { RequestTarget } from './request-target.ts';

export const REST_CLIENT_REQUESTS_TOTAL = 'rest_client_requests_total';
/**
 * Ours (client-go has none): the same requests by Kubernetes verb (`get`, `list`, `watch`,
 * `patch`…), API group and resource (`baremetalhosts/status`), for the benchmark's breakdown.
 * Kept apart so client-go's counter keeps its labels.
 */
export const REST_CLIENT_REQUESTS_BY_RESOURCE_TOTAL = 'rest_client_requests_by_resource_total';
/** Ours (client-go has none): connections the client opened, which kept-alive reuse keeps flat. */
export const REST_CLIENT_CONNECTIONS_OPENED_TOTAL = 'rest_client_connections_opened_total';

/** client-go's `code` for a request that got no HTTP response. */
export const REST_CLIENT_NO_RESPONSE = '<error>';

export interface RestClientMetrics {
  requested(sample: { method: string; host: string; code: string; target?: RequestTarget }): void;
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
  const byResource =
    (registry.getSingleMetric(REST_CLIENT_REQUESTS_BY_RESOURCE_TOTAL) as Counter<'verb' | 'group' | 'resource'> | undefined) ??
    new Counter({
      name: REST_CLIENT_REQUESTS_BY_RESOURCE_TOTAL,
      help: 'Number of HTTP requests, partitioned by Kubernetes verb, API group and resource (with subresource).',
      labelNames: ['verb', 'group', 'resource'] as const,
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
    requested: ({ method, host, code, target }) => {
      counter.inc({ code, host, method });
      if (target) byResource.inc({ verb: target.verb, group: target.group, resource: target.resource });
    },
    connected: ({ host }) => connections.inc({ host }),
  };
}
