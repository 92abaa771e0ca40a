import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { createHostMetrics } from './metrics.ts';

describe('host metrics', () => {
  it('counts hosts per state and operational status at scrape time', async () => {
    const registry = new Registry();
    let hosts = [
      { state: 'available', operationalStatus: 'OK' },
      { state: 'available', operationalStatus: 'OK' },
      { state: 'provisioning', operationalStatus: 'error' },
    ];
    createHostMetrics(registry, { hosts: () => hosts });
    const first = await registry.getSingleMetricAsString('metal3_hosts');
    expect(first).toContain('metal3_hosts{state="available",operational_status="OK"} 2');
    expect(first).toContain('metal3_hosts{state="provisioning",operational_status="error"} 1');
    hosts = [{ state: 'provisioned', operationalStatus: 'OK' }];
    const second = await registry.getSingleMetricAsString('metal3_hosts');
    expect(second).not.toContain('available');
  });

  it('uses BMO names and labels, and can share a registry', async () => {
    const registry = new Registry();
    const metrics = createHostMetrics(registry, { hosts: () => [] });
    createHostMetrics(registry, { hosts: () => [] });
    const request = { namespace: 'ns', name: 'h' };
    metrics.apply({ metric: 'powerChange', on: false }, request);
    metrics.apply({ metric: 'operationDuration', operation: 'provision', seconds: 100 }, request);
    metrics.apply({ metric: 'delayed', deprovisioning: true }, request);
    const text = await registry.metrics();
    expect(text).toContain('metal3_operation_power_change_total{namespace="ns",host="h",on_off="off"} 1');
    expect(text).toContain('metal3_operation_provision_duration_seconds_bucket{le="180",namespace="ns",host="h"} 1');
    expect(text).toContain('metal3_delayed__deprovisioning_total{namespace="ns",host="h"} 1');
    for (const name of ['metal3_delete_without_deprovisioning_total', 'metal3_host_registration_required_total', 'metal3_credentials_no_management_access_total']) {
      expect(text).toContain(`# TYPE ${name} counter`);
    }
  });

  it('drops every series of a host that is gone, and keeps the others', async () => {
    const registry = new Registry();
    const metrics = createHostMetrics(registry, { hosts: () => [] });
    const gone = { namespace: 'ns', name: 'gone' };
    const kept = { namespace: 'ns', name: 'kept' };
    for (const request of [gone, kept]) {
      metrics.reconciled(request);
      metrics.apply({ metric: 'powerChange', on: true }, request);
      metrics.apply({ metric: 'powerChange', on: false }, request);
      metrics.apply({ metric: 'delayed', deprovisioning: false }, request);
      for (const operation of ['register', 'inspect', 'provision', 'deprovision'] as const) {
        metrics.apply({ metric: 'operationDuration', operation, seconds: 42 }, request);
      }
    }
    expect(await registry.metrics()).toContain('host="gone"');
    metrics.forget(gone);
    const text = await registry.metrics();
    expect(text).not.toContain('host="gone"');
    expect(text).toContain('metal3_reconcile_total{namespace="ns",host="kept"} 1');
    expect(text).toContain('metal3_operation_register_duration_seconds_bucket{le="+Inf",namespace="ns",host="kept"} 1');
  });
});
