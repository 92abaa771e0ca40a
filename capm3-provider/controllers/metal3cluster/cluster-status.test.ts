import { describe, expect, it } from '@jest/globals';
import type { Clock } from '../../../operator/runtime/index.ts';
import { metal3ClusterSchema } from '../../api/index.ts';
import { ClusterStatus } from './cluster-status.ts';
import { statusMergePatch } from '../status-draft.ts';

// Only now() is read; the provider may not import the runtime's testing helpers.
const clock = (): Clock => ({ now: () => Date.parse('2026-01-02T03:04:05Z'), setTimer: () => ({ cancel: () => {} }) });

describe('ClusterStatus', () => {
  it('writes nothing when a reconcile changed nothing', () => {
    const first = new ClusterStatus(metal3ClusterSchema.parse({ metadata: { name: 'a', generation: 2 } }), clock());
    first.condition({ type: 'Ready', status: 'True', reason: 'Ready' });
    const written = first.patch();
    expect(written).toMatchObject({ conditions: [{ type: 'Ready', status: 'True', observedGeneration: 2 }], lastUpdated: '2026-01-02T03:04:05Z' });
    const { lastUpdated: _lastUpdated, ...status } = written!;
    const again = new ClusterStatus(metal3ClusterSchema.parse({ metadata: { name: 'a', generation: 2 }, status }), clock());
    again.condition({ type: 'Ready', status: 'True', reason: 'Ready' });
    expect(again.patch()).toBeUndefined();
  });

  it('clears the v1beta1 failure fields with nulls once the failure is gone', () => {
    const failed = metal3ClusterSchema.parse({ metadata: { name: 'a' },
      status: { deprecated: { v1beta1: { failureReason: 'InvalidConfiguration', failureMessage: 'no host' } } } });
    const status = new ClusterStatus(failed, clock());
    status.failure(undefined);
    expect(status.patch()).toMatchObject({ deprecated: null });
  });

  it('sets the v1beta1 failure fields', () => {
    const status = new ClusterStatus(metal3ClusterSchema.parse({ metadata: { name: 'a' } }), clock());
    status.failure({ reason: 'InvalidConfiguration', message: 'no host' });
    expect(status.patch()).toMatchObject({ deprecated: { v1beta1: { failureReason: 'InvalidConfiguration', failureMessage: 'no host' } } });
  });
});

describe('statusMergePatch', () => {
  it('nulls dropped fields at any depth and replaces arrays whole', () => {
    expect(statusMergePatch(
      { a: 1, nested: { keep: 1, drop: 2 }, list: [1, 2], gone: { x: 1 } },
      { a: 1, nested: { keep: 1 }, list: [1] },
    )).toEqual({ a: 1, nested: { keep: 1, drop: null }, list: [1], gone: null });
  });

  it('keeps CAPM3\'s deprecated v1beta1 BaremetalInfrastructureReady and its Ready summary', () => {
    const status = new ClusterStatus(metal3ClusterSchema.parse({ metadata: { name: 'a' } }), clock());
    status.condition({ type: 'BaremetalInfrastructureReady', status: 'False', reason: 'ControlPlaneEndpointFailed', message: 'no host' });
    status.legacyConditions();
    expect(status.next.deprecated?.v1beta1?.conditions).toEqual([
      { type: 'Ready', status: 'False', reason: 'ControlPlaneEndpointFailed', severity: 'Error', message: 'no host', lastTransitionTime: '2026-01-02T03:04:05Z' },
      { type: 'BaremetalInfrastructureReady', status: 'False', reason: 'ControlPlaneEndpointFailed', severity: 'Error', message: 'no host', lastTransitionTime: '2026-01-02T03:04:05Z' },
    ]);
    status.condition({ type: 'BaremetalInfrastructureReady', status: 'True', reason: 'Ready' });
    status.legacyConditions();
    expect(status.next.deprecated?.v1beta1?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['Ready=True', 'BaremetalInfrastructureReady=True']);
    const orphan = new ClusterStatus(metal3ClusterSchema.parse({ metadata: { name: 'b' } }), clock());
    orphan.condition({ type: 'Ready', status: 'False', reason: 'FailedToGetOwnerCluster', message: 'owner Cluster n/gone does not exist' });
    orphan.legacyConditions();
    expect(orphan.next.deprecated?.v1beta1?.conditions?.[1]).toMatchObject({ type: 'BaremetalInfrastructureReady', reason: 'InternalFailureOccured', severity: 'Error' });
    // Nothing to say yet (waiting for an owner): no v1beta1 conditions at all.
    const waiting = new ClusterStatus(metal3ClusterSchema.parse({ metadata: { name: 'c' } }), clock());
    waiting.condition({ type: 'Ready', status: 'False', reason: 'WaitingForClusterOwnerRef', message: 'waiting' });
    waiting.legacyConditions();
    expect(waiting.next.deprecated).toBeUndefined();
  });
});
