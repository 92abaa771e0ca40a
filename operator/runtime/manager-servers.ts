import type { Registry } from 'prom-client';
import type { HealthChecks } from './health.ts';
import { startHttpServer } from './http-server.ts';
import type { BindAddress, RouteHandler, RunningServer } from './http-server.ts';
import type { Logger } from './logger.ts';
import type { MetricsAccessReviewer } from './metrics-access.ts';
import type { TlsPolicy } from './tls-policy.ts';
import { metricsExposition } from './metrics-exposition.ts';

export type ManagerServerName = 'health' | 'metrics';

export interface ManagerServersOptions {
  /** `null` disables a server, as `0` does on the command line. */
  healthProbeBindAddress: BindAddress | null;
  metricsBindAddress: BindAddress | null;
  /** HTTPS with this certificate, each request reviewed first (BMO's and CAPM3's secure metrics). */
  metricsSecurity?: { tls: { cert: string | Buffer; key: string | Buffer; policy?: TlsPolicy; certDir?: string }; reviewer: MetricsAccessReviewer };
  healthz: HealthChecks;
  readyz: HealthChecks;
  registry: Registry;
  logger: Logger;
}

function probe(checks: HealthChecks): RouteHandler {
  return async ({ url }) => {
    const report = await checks.run({ verbose: url.searchParams.has('verbose') });
    return { status: report.healthy ? 200 : 500, body: report.body };
  };
}

/**
 * controller-runtime's two listeners: probes (`/healthz`, `/readyz`) and `/metrics`, on
 * separate addresses so the metrics port can be protected differently. If one fails to
 * bind, the other is closed again before the error propagates.
 */
export async function startManagerServers(options: ManagerServersOptions): Promise<Map<ManagerServerName, RunningServer>> {
  const servers = new Map<ManagerServerName, RunningServer>();
  try {
    if (options.healthProbeBindAddress) {
      servers.set(
        'health',
        await startHttpServer({
          name: 'health probes',
          bindAddress: options.healthProbeBindAddress,
          routes: { '/healthz': probe(options.healthz), '/readyz': probe(options.readyz) },
          logger: options.logger,
        }),
      );
    }
    if (options.metricsBindAddress) {
      servers.set(
        'metrics',
        await startHttpServer({
          name: 'metrics',
          bindAddress: options.metricsBindAddress,
          routes: {
            '/metrics': async () => ({
              status: 200,
              contentType: options.registry.contentType,
              body: await metricsExposition(options.registry),
            }),
          },
          logger: options.logger,
          ...(options.metricsSecurity ? { tls: options.metricsSecurity.tls, guard: (request) => options.metricsSecurity!.reviewer.review(request) } : {}),
        }),
      );
    }
  } catch (error) {
    await Promise.all([...servers.values()].map((s) => s.close()));
    throw error;
  }
  return servers;
}
