import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { BareMetalHost } from '../../../operator/api/index.ts';
import { bareMetalHostSchema } from '../../../operator/api/index.ts';
import { metal3MachineTemplateSchema } from '../../api/index.ts';
import type { HostSelector, Metal3MachineTemplate } from '../../api/index.ts';
import { availableHostsPerTemplate } from './available-hosts.ts';
import type { TemplateAvailableHosts } from './available-hosts.ts';
import { createTemplateMetrics } from './metrics.ts';

const m3mRef = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3Machine', name: 'm', namespace: 'ns' };

function host(name: string, options: {
  namespace?: string; state?: string; labels?: Record<string, string>; annotations?: Record<string, string>; consumed?: boolean; errorMessage?: string;
} = {}): BareMetalHost {
  return bareMetalHostSchema.parse({
    metadata: { name, namespace: options.namespace ?? 'ns', labels: options.labels ?? {}, annotations: options.annotations ?? {} },
    spec: { online: false, ...(options.consumed ? { consumerRef: m3mRef } : {}) },
    status: { provisioning: { state: options.state ?? 'available' }, ...(options.errorMessage ? { errorMessage: options.errorMessage } : {}) },
  });
}

function template(name: string, hostSelector?: HostSelector, namespace = 'ns'): Metal3MachineTemplate {
  return metal3MachineTemplateSchema.parse({
    metadata: { name, namespace },
    spec: { template: { spec: { image: { url: 'http://127.0.0.1/i.qcow2', checksum: 'abc' }, ...(hostSelector ? { hostSelector } : {}) } } },
  });
}

const worker = { role: 'worker' };

describe('availableHostsPerTemplate', () => {
  it('counts the free hosts each selector matches, in the template namespace only', () => {
    const hosts = [
      host('w1', { labels: worker }),
      host('w2', { labels: worker, state: 'ready' }),
      host('cp1', { labels: { role: 'control-plane' } }),
      host('elsewhere', { namespace: 'other', labels: worker }),
    ];
    const counts = availableHostsPerTemplate(
      [template('workers', { matchLabels: worker }), template('any'), template('big', { matchExpressions: [{ key: 'cpus', operator: 'gt', values: ['8'] }] })],
      hosts,
    );
    expect(counts).toEqual([
      { namespace: 'ns', template: 'workers', hosts: 2 },
      { namespace: 'ns', template: 'any', hosts: 3 },
      { namespace: 'ns', template: 'big', hosts: 0 },
    ]);
  });

  it('leaves out the hosts claiming would not take', () => {
    const hosts = [
      host('free', { labels: worker }),
      host('claimed', { labels: worker, consumed: true }),
      host('inspecting', { labels: worker, state: 'inspecting' }),
      host('provisioned', { labels: worker, state: 'provisioned' }),
      host('broken', { labels: worker, errorMessage: 'power failed' }),
      host('paused', { labels: worker, annotations: { 'baremetalhost.metal3.io/paused': '' } }),
      host('unhealthy', { labels: worker, annotations: { 'capm3.metal3.io/unhealthy': '' } }),
      host('kept', { labels: { ...worker, 'infrastructure.cluster.x-k8s.io/node-reuse': 'md-a' } }),
    ];
    expect(availableHostsPerTemplate([template('workers', { matchLabels: worker })], hosts)).toEqual([{ namespace: 'ns', template: 'workers', hosts: 1 }]);
  });

  it('counts 0 for a selector that does not compile', () => {
    const bad = template('bad', { matchExpressions: [{ key: 'cpus', operator: 'gt', values: ['many'] }] });
    expect(availableHostsPerTemplate([bad], [host('h')])).toEqual([{ namespace: 'ns', template: 'bad', hosts: 0 }]);
  });
});

describe('capm3_template_available_hosts', () => {
  it('reports the counts at each scrape, drops deleted templates and reports nothing before the caches fill', async () => {
    const registry = new Registry();
    let counts: TemplateAvailableHosts[] | undefined;
    createTemplateMetrics(registry, { counts: () => counts });
    const series = async () => (await registry.getSingleMetric('capm3_template_available_hosts')?.get())?.values.map((v) => [v.labels, v.value]);

    expect(await series()).toEqual([]);
    counts = [{ namespace: 'ns', template: 'a', hosts: 2 }, { namespace: 'ns', template: 'b', hosts: 0 }];
    expect(await series()).toEqual([[{ namespace: 'ns', template: 'a' }, 2], [{ namespace: 'ns', template: 'b' }, 0]]);
    counts = [{ namespace: 'ns', template: 'a', hosts: 1 }];
    expect(await series()).toEqual([[{ namespace: 'ns', template: 'a' }, 1]]);
  });
});
