import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { TemplateAvailableHosts } from './available-hosts.ts';

export const TEMPLATE_AVAILABLE_HOSTS_METRIC = 'capm3_template_available_hosts';

/**
 * `capm3_template_available_hosts{namespace,template}`, counted from the informer caches at
 * scrape time (as the operator's `metal3_hosts`), so it follows every host and template change
 * and a deleted template's series goes with it. `counts` returns undefined until the caches
 * are filled: no series rather than a false 0.
 */
export function createTemplateMetrics(registry: Registry, options: { counts: () => TemplateAvailableHosts[] | undefined }): void {
  if (registry.getSingleMetric(TEMPLATE_AVAILABLE_HOSTS_METRIC)) return;
  new Gauge({
    name: TEMPLATE_AVAILABLE_HOSTS_METRIC,
    help: "Number of BareMetalHosts a Metal3MachineTemplate's hostSelector matches that are free to claim",
    labelNames: ['namespace', 'template'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const count of options.counts() ?? []) this.set({ namespace: count.namespace, template: count.template }, count.hosts);
    },
  });
}
