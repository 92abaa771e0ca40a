import { describe, expect, it } from '@jest/globals';
import type { Clock } from '../../../operator/runtime/index.ts';
import { metal3MachineSchema } from '../../api/index.ts';
import type { Metal3MachineStatus } from '../../api/index.ts';
import { MachineStatus } from './machine-status.ts';

// Only now() is read; the provider may not import the runtime's testing helpers.
const clock = (iso = '2026-01-02T03:04:05Z'): Clock => ({ now: () => Date.parse(iso), setTimer: () => ({ cancel: () => {} }) });
const machine = (status?: Metal3MachineStatus) =>
  metal3MachineSchema.parse({ metadata: { name: 'm', namespace: 'ns', generation: 3 }, spec: {}, ...(status ? { status } : {}) });
const ready = (status: MachineStatus) => status.next.conditions?.find((c) => c.type === 'Ready');

describe('MachineStatus', () => {
  it('summarises Ready from the first blocking input, with its reason and message', () => {
    const status = new MachineStatus(machine(), clock());
    status.condition({ type: 'Paused', status: 'False', reason: 'NotPaused', message: '' });
    status.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'AssociateBareMetalHostFailed', message: 'no free BareMetalHost' });
    status.summarize();
    expect(ready(status)).toMatchObject({ status: 'False', reason: 'AssociateBareMetalHostFailed', message: 'no free BareMetalHost', observedGeneration: 3 });
  });

  it('names the host provisioning wait once the host is associated', () => {
    const status = new MachineStatus(machine(), clock());
    status.condition({ type: 'AssociateBareMetalHost', status: 'True', reason: 'AssociateBareMetalHostSuccess', message: 'claimed h' });
    status.condition({ type: 'HostProvisioned', status: 'False', reason: 'WaitingForHostProvisioned', message: 'h is provisioning' });
    status.summarize();
    expect(ready(status)).toMatchObject({ status: 'False', reason: 'WaitingForHostProvisioned', message: 'h is provisioning' });
  });

  it('puts Paused first, whatever else blocks', () => {
    const status = new MachineStatus(machine(), clock());
    status.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'AssociateBareMetalHostFailed', message: 'none' });
    status.condition({ type: 'Paused', status: 'True', reason: 'Paused', message: 'Cluster c1 or this Metal3Machine is paused' });
    status.summarize();
    expect(ready(status)).toMatchObject({ status: 'False', reason: 'Paused', message: 'Cluster c1 or this Metal3Machine is paused' });
  });

  it('says NotReady without any blocking input, and Ready once provisioned', () => {
    const waiting = new MachineStatus(machine(), clock());
    waiting.summarize();
    expect(ready(waiting)).toMatchObject({ status: 'False', reason: 'NotReady', message: 'waiting for the host to be provisioned' });
    const done = new MachineStatus(machine(), clock());
    done.condition({ type: 'HostProvisioned', status: 'False', reason: 'Stale', message: '' });
    done.next.initialization = { provisioned: true };
    done.summarize();
    expect(ready(done)).toMatchObject({ status: 'True', reason: 'Ready' });
  });

  it('writes nothing when a reconcile changed nothing, even later', () => {
    const first = new MachineStatus(machine(), clock());
    first.condition({ type: 'Paused', status: 'False', reason: 'NotPaused', message: '' });
    first.summarize();
    const written = first.patch();
    expect(written).toMatchObject({ lastUpdated: '2026-01-02T03:04:05Z', conditions: [{ type: 'Paused' }, { type: 'Ready' }] });
    const { lastUpdated: _lastUpdated, ...stored } = written!;

    const again = new MachineStatus(machine({ ...stored, lastUpdated: '2026-01-02T03:04:05Z' }), clock('2026-01-02T04:00:00Z'));
    again.condition({ type: 'Paused', status: 'False', reason: 'NotPaused', message: '' });
    again.summarize();
    expect(again.patch()).toBeUndefined();
  });

  it('writes the whole status with a new lastUpdated when something changed, keeping the transition time of unchanged conditions', () => {
    const first = new MachineStatus(machine(), clock());
    first.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'AssociateBareMetalHostFailed', message: 'none' });
    const stored = first.patch()!;
    const later = new MachineStatus(machine(stored), clock('2026-01-02T05:00:00Z'));
    later.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'AssociateBareMetalHostFailed', message: 'still none, 3 consumed' });
    later.next.userData = { name: 'bootstrap', namespace: 'ns' };
    const patch = later.patch();
    expect(patch).toMatchObject({ lastUpdated: '2026-01-02T05:00:00Z', userData: { name: 'bootstrap', namespace: 'ns' } });
    expect((patch?.conditions as { message: string }[] | undefined)?.[0]).toMatchObject({ message: 'still none, 3 consumed', lastTransitionTime: '2026-01-02T03:04:05Z' });
  });

  describe('CAPM3\'s deprecated v1beta1 conditions', () => {
    const legacy = (status: MachineStatus) => status.next.deprecated?.v1beta1?.conditions;
    it('waits for bootstrap data as AssociateBMH WaitingForBootstrapReady, and Ready says so', () => {
      const status = new MachineStatus(machine(), clock());
      status.condition({ type: 'Paused', status: 'False', reason: 'NotPaused', message: '' });
      status.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'WaitingForBootstrapData', message: 'no bootstrap data yet' });
      status.summarize();
      status.legacyConditions({ deleting: false });
      expect(legacy(status)).toEqual([
        { type: 'Ready', status: 'False', reason: 'WaitingForBootstrapReady', severity: 'Info', message: 'no bootstrap data yet', lastTransitionTime: '2026-01-02T03:04:05Z' },
        { type: 'AssociateBMH', status: 'False', reason: 'WaitingForBootstrapReady', severity: 'Info', message: 'no bootstrap data yet', lastTransitionTime: '2026-01-02T03:04:05Z' },
      ]);
    });

    it('an association failure is AssociateBMHFailed with severity Error; paused wins as Metal3MachinePaused', () => {
      const status = new MachineStatus(machine(), clock());
      status.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'AssociateBareMetalHostFailed', message: 'no free BareMetalHost' });
      status.legacyConditions({ deleting: false });
      expect(legacy(status)?.find((c) => c.type === 'AssociateBMH')).toMatchObject({ status: 'False', reason: 'AssociateBMHFailed', severity: 'Error', message: 'no free BareMetalHost' });
      status.condition({ type: 'Paused', status: 'True', reason: 'Paused', message: 'Cluster paused' });
      status.legacyConditions({ deleting: false });
      expect(legacy(status)?.[0]).toMatchObject({ type: 'Ready', status: 'False', reason: 'Metal3MachinePaused', severity: 'Info' });
    });

    it('is True once associated with its data ready, keeping times across passes; deleting makes KubernetesNodeReady False Deleting', () => {
      const status = new MachineStatus(machine(), clock());
      status.condition({ type: 'AssociateBareMetalHost', status: 'True', reason: 'AssociateBareMetalHostSuccess', message: 'claimed h' });
      status.condition({ type: 'AssociateMetal3MachineMetaData', status: 'True', reason: 'AssociateMetal3MachineMetaDataSuccess', message: '' });
      status.condition({ type: 'Metal3DataReady', status: 'True', reason: 'Metal3DataReady', message: '' });
      status.legacyConditions({ deleting: false });
      expect(legacy(status)?.map((c) => [c.type, c.status])).toEqual([['Ready', 'True'], ['AssociateBMH', 'True'], ['Metal3DataReady', 'True']]);
      const next = new MachineStatus(machine(status.next), clock('2026-01-02T04:00:00Z'));
      next.legacyConditions({ deleting: false });
      expect(next.patch()).toBeUndefined();
      next.legacyConditions({ deleting: true });
      expect(legacy(next)?.[0]).toMatchObject({ type: 'Ready', status: 'False', reason: 'Deleting', severity: 'Info', lastTransitionTime: '2026-01-02T04:00:00Z' });
      expect(legacy(next)?.find((c) => c.type === 'AssociateBMH')?.lastTransitionTime).toBe('2026-01-02T03:04:05Z');
    });
  });
});
