import { describe, expect, it } from '@jest/globals';
import { bareMetalHostSchema } from '../../operator/api/index.ts';
import { pauseAnnotationChanges } from './pause.ts';

const PAUSED = 'baremetalhost.metal3.io/paused';
const STATUS = 'baremetalhost.metal3.io/status';
const CLUSTER = 'cluster.x-k8s.io/cluster-name';

function host(options: { annotations?: Record<string, string>; labels?: Record<string, string> } = {}) {
  return bareMetalHostSchema.parse({
    metadata: { name: 'h', namespace: 'ns', annotations: options.annotations ?? {}, labels: options.labels ?? { [CLUSTER]: 'c1' } },
    spec: { online: true },
    status: { operationalStatus: 'OK', provisioning: { state: 'provisioned', ID: 'node-1' }, poweredOn: true,
      hardware: { hostname: 'worker', cpu: { count: 8 } } },
  });
}

describe('pauseAnnotationChanges', () => {
  it('pauses with our value and saves the status without hardware when the cluster is paused', () => {
    const changes = pauseAnnotationChanges(host(), { clusterPaused: true, clusterName: 'c1' });
    expect(changes?.[PAUSED]).toBe('metal3.io/capm3');
    const saved = JSON.parse(changes?.[STATUS] ?? '{}') as Record<string, unknown>;
    expect(saved).toMatchObject({ operationalStatus: 'OK', poweredOn: true, provisioning: { state: 'provisioned', ID: 'node-1' } });
    expect(saved.hardware).toBeUndefined();
  });

  it.each(['metal3.io/capm3', 'user', ''])('leaves a host already paused (%j) alone', (value) => {
    expect(pauseAnnotationChanges(host({ annotations: { [PAUSED]: value } }), { clusterPaused: true, clusterName: 'c1' })).toBeUndefined();
  });

  it('removes only our own pause, on a host of this cluster, when the cluster is not paused', () => {
    expect(pauseAnnotationChanges(host({ annotations: { [PAUSED]: 'metal3.io/capm3', [STATUS]: '{}' } }), { clusterPaused: false, clusterName: 'c1' }))
      .toEqual({ [PAUSED]: null });
    expect(pauseAnnotationChanges(host({ annotations: { [PAUSED]: 'user' } }), { clusterPaused: false, clusterName: 'c1' })).toBeUndefined();
    expect(pauseAnnotationChanges(host({ annotations: { [PAUSED]: 'metal3.io/capm3' }, labels: { [CLUSTER]: 'c2' } }), { clusterPaused: false, clusterName: 'c1' }))
      .toBeUndefined();
    expect(pauseAnnotationChanges(host({ annotations: { [PAUSED]: 'metal3.io/capm3' }, labels: {} }), { clusterPaused: false, clusterName: 'c1' }))
      .toBeUndefined();
    expect(pauseAnnotationChanges(host(), { clusterPaused: false, clusterName: 'c1' })).toBeUndefined();
  });
});
