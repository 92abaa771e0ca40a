// Per-request Prometheus metrics, labelled by route template so a node's UUID never becomes a label.
// Metrics live on the Registry the caller passes; several clients may share one.
import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';

export const REQUESTS_TOTAL = 'ironic_client_requests_total';
export const REQUEST_DURATION = 'ironic_client_request_duration_seconds';

/** Label `code` for requests that got no HTTP response. */
export const NO_RESPONSE_CODE = 'connection_error';

export interface RequestMetrics {
  observe(sample: { method: string; route: string; code: string; seconds: number }): void;
}

function existing<T>(registry: Registry, name: string, type: abstract new (...args: never[]) => T): T | undefined {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) return undefined;
  if (!(metric instanceof type)) throw new Error(`metric ${name} is already registered with another type`);
  return metric;
}

export function createRequestMetrics(registry: Registry): RequestMetrics {
  const requests =
    existing(registry, REQUESTS_TOTAL, Counter) ??
    new Counter({
      name: REQUESTS_TOTAL,
      help: 'HTTP requests sent to Ironic, including retries, by method, route template and status code.',
      labelNames: ['method', 'route', 'code'] as const,
      registers: [registry],
    });
  const duration =
    existing(registry, REQUEST_DURATION, Histogram) ??
    new Histogram({
      name: REQUEST_DURATION,
      help: 'Latency of HTTP requests to Ironic by method and route template.',
      labelNames: ['method', 'route'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
  return {
    observe({ method, route, code, seconds }) {
      requests.inc({ method, route, code });
      duration.observe({ method, route }, seconds);
    },
  };
}
