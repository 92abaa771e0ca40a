import { Registry } from 'prom-client';
import { createRequestMetrics } from '../../../ironic-client/src/metrics.ts';
import { createTemplateMetrics } from '../../../capm3-provider/controllers/metal3machinetemplate/metrics.ts';
import { createPoolMetrics } from '../../../capm3-provider/ipam/controllers/pool-metrics.ts';
import { createHostMetrics } from '../../../operator/controllers/baremetalhost/metrics.ts';
import { createRestClientMetrics, createRuntimeMetrics } from '../../../operator/runtime/index.ts';

const SERIES_SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count'] };

/**
 * Every series name the operator, the provider and the IP address manager expose on /metrics
 * beyond Node's defaults: the families their managers register (the runtime's for all; the host
 * controller's and the Ironic client's for the operator; the template controller's for the
 * provider; the pool controller's for the IP address manager), from the same factories, on a
 * fresh registry.
 */
export async function exportedSeriesNames(): Promise<Set<string>> {
  const registry = new Registry();
  createRuntimeMetrics(registry);
  createRestClientMetrics(registry);
  createHostMetrics(registry, { hosts: () => [] });
  createRequestMetrics(registry);
  createTemplateMetrics(registry, { counts: () => [] });
  createPoolMetrics(registry, { pools: () => [] });
  const names = new Set<string>();
  for (const family of await registry.getMetricsAsJSON()) {
    names.add(family.name);
    for (const suffix of SERIES_SUFFIXES[String(family.type)] ?? []) names.add(`${family.name}${suffix}`);
  }
  return names;
}

const NOT_METRICS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/**
 * The metric names a PromQL expression selects: identifiers that are not functions, keywords,
 * label names (matchers, by/on lists), ranges or parts of numbers and strings.
 */
export function metricNamesIn(expression: string): string[] {
  const bare = expression
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = [];
  for (const match of bare.matchAll(/(?<![\w.$])[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const isFunction = bare.slice(match.index + match[0].length).trimStart().startsWith('(');
    if (!isFunction && !NOT_METRICS.has(match[0].toLowerCase())) names.push(match[0]);
  }
  return [...new Set(names)];
}
