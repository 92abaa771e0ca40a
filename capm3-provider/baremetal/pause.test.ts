import { describe, expect, it } from '@jest/globals';
import { bareMetalHostSchema } from '../../operator/api/index.ts';
import { claimAnnotationChanges, pauseAnnotationChanges } from './pause.ts';

const PAUSED = 'baremetalhost.metal3.io/paused';
const STATUS = 'baremetalhost.metal3.io/status';
const CLUSTER = 'cluster.x-k8s.io/cluster-name';
const BLOCK_MOVE = 'clusterctl.cluster.x-k8s.io/block-move';

function host(options: { annotations?: Record<string, string>; labels?: Record<string, string> } = {}) {
  return bareMetalHostSchema.parse({
    metadata: { name: 'h', namespace: 'ns', annotations: options.annotations ?? {}, labels: options.labels ?? { [CLUSTER]: 'c1' } },
    spec: { online: true },
    status: { operationalStatus: 'OK', provisioning: { state: 'provisioned', ID: 'node-1' }, poweredOn: true,
      hardware: { hostname: 'worker', cpu: { count: 8 } } },
  });
}

describe('pauseAnnotationChanges', () => {
  it('pauses with our value, saves the status without hardware and lifts block-move in the same write', () => {
    const changes = pauseAnnotationChanges(host({ annotations: { [BLOCK_MOVE]: '' } }), { clusterPaused: true, clusterName: 'c1' });
    expect(changes?.[PAUSED]).toBe('metal3.io/capm3');
    expect(changes).toHaveProperty([BLOCK_MOVE], null);
    const saved = JSON.parse(changes?.[STATUS] ?? '{}') as Record<string, unknown>;
    expect(saved).toMatchObject({ operationalStatus: 'OK', poweredOn: true, provisioning: { state: 'provisioned', ID: 'node-1' } });
    expect(saved.hardware).toBeUndefined();
    expect(pauseAnnotationChanges(host(), { clusterPaused: true, clusterName: 'c1' })).not.toHaveProperty([BLOCK_MOVE]);
  });

  it.each(['metal3.io/capm3', 'user', ''])('leaves a host already paused (%j) alone, but for a stale block-move', (value) => {
    expect(pauseAnnotationChanges(host({ annotations: { [PAUSED]: value } }), { clusterPaused: true, clusterName: 'c1' })).toBeUndefined();
    expect(pauseAnnotationChanges(host({ annotations: { [PAUSED]: value, [BLOCK_MOVE]: '' } }), { clusterPaused: true, clusterName: 'c1' }))
      .toEqual({ [BLOCK_MOVE]: null });
  });

  it('removes only our own pause, on a host of this cluster, when the cluster is not paused, and blocks moves of the unpaused host', () => {
    expect(pauseAnnotationChanges(host({ annotations: { [PAUSED]: 'metal3.io/capm3', [STATUS]: '{}' } }), { clusterPaused: false, clusterName: 'c1' }))
      .toEqual({ [PAUSED]: null, [BLOCK_MOVE]: '' });
    expect(pauseAnnotationChanges(host({ annotations: { [PAUSED]: 'user' } }), { clusterPaused: false, clusterName: 'c1' })).toBeUndefined();
    expect(pauseAnnotationChanges(host({ annotations: { [PAUSED]: 'metal3.io/capm3' }, labels: { [CLUSTER]: 'c2' } }), { clusterPaused: false, clusterName: 'c1' }))
      .toBeUndefined();
    expect(pauseAnnotationChanges(host({ annotations: { [PAUSED]: 'metal3.io/capm3' }, labels: {} }), { clusterPaused: false, clusterName: 'c1' }))
      .toBeUndefined();
  });

  it('puts block-move on a held, unpaused host once', () => {
    expect(pauseAnnotationChanges(host(), { clusterPaused: false, clusterName: 'c1' })).toEqual({ [BLOCK_MOVE]: '' });
    expect(pauseAnnotationChanges(host({ annotations: { [BLOCK_MOVE]: '' } }), { clusterPaused: false, clusterName: 'c1' })).toBeUndefined();
  });
});

describe('claimAnnotationChanges', () => {
  it('claims an unpaused host with block-move, and adds nothing to a paused or already blocked one', () => {
    expect(claimAnnotationChanges(host())).toEqual({ [BLOCK_MOVE]: '' });
    expect(claimAnnotationChanges(host({ annotations: { [PAUSED]: 'user' } }))).toBeUndefined();
    expect(claimAnnotationChanges(host({ annotations: { [BLOCK_MOVE]: '' } }))).toBeUndefined();
  });
});
