// The /metrics body. prom-client's `registry.metrics()` makes an object per line and then the
// whole text at once; per-host series (CompactHistogram) are instead written a chunk at a time,
// after the other metrics. Prometheus reads metric families in any order. Registry default
// labels would not reach the chunked series; none are set in this project.
import type { Metric, RegistryContentType } from 'prom-client';
import { Registry } from 'prom-client';
import { CompactHistogram } from './compact-histogram.ts';

/** The text of every metric; what can fail (collect callbacks) runs before this resolves. */
export async function metricsExposition(registry: Registry<RegistryContentType>): Promise<string | Iterable<string>> {
  if (registry.contentType !== Registry.PROMETHEUS_CONTENT_TYPE) return registry.metrics();
  const others = new Registry();
  const chunked: CompactHistogram<string>[] = [];
  for (const metric of registry.getMetricsAsArray()) {
    if (metric instanceof CompactHistogram) chunked.push(metric as CompactHistogram<string>);
    else others.registerMetric(metric as unknown as Metric);
  }
  // Like registry.metrics(): one blank line between families, a newline at the end.
  const head = await others.metrics();
  return (function* () {
    yield head;
    for (const histogram of chunked) {
      yield '\n';
      yield* histogram.exposition();
      yield '\n';
    }
  })();
}
