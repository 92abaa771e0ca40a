import { describe, expect, it } from '@jest/globals';
import { allows } from '../../runtime/predicates.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { firmwareComponentsSeenChanged, firmwareSettingsSeenChanged, hostChanged, secretContentChanged } from './predicates.ts';

const host = (metadata: Record<string, unknown>, status: unknown = {}): KubeObject => ({ metadata: { name: 'h', generation: 1, ...metadata }, status });
const update = (a: KubeObject, b: KubeObject) => allows(hostChanged, { type: 'update', oldObject: a, object: b });

describe('host update filter', () => {
  it('ignores status-only writes', () => {
    expect(update(host({ resourceVersion: '1' }, { a: 1 }), host({ resourceVersion: '2' }, { a: 2 }))).toBe(false);
  });

  it('passes spec, finalizer, annotation and deletion changes', () => {
    expect(update(host({}), host({ generation: 2 }))).toBe(true);
    expect(update(host({ finalizers: ['a'] }), host({ finalizers: [] }))).toBe(true);
    expect(update(host({ finalizers: ['a', 'b'] }), host({ finalizers: ['b', 'a'] }))).toBe(false);
    expect(update(host({}), host({ annotations: { 'baremetalhost.metal3.io/paused': '' } }))).toBe(true);
    expect(update(host({}), host({ deletionTimestamp: '2026-05-01T12:00:00Z' }))).toBe(true);
  });
});

describe('claimed Secret update filter', () => {
  const secret = (metadata: Record<string, unknown>, data: Record<string, string> = { password: 'cGFzcw==' }, type = 'Opaque') =>
    ({ metadata: { name: 's', ...metadata }, data, type }) as KubeObject;
  const secretUpdate = (a: KubeObject, b: KubeObject) => allows(secretContentChanged, { type: 'update', oldObject: a, object: b });

  it('ignores another host claiming it (owner references, finalizers, labels)', () => {
    expect(secretUpdate(secret({ resourceVersion: '1', ownerReferences: [{ uid: 'a' }] }),
      secret({ resourceVersion: '2', ownerReferences: [{ uid: 'a' }, { uid: 'b' }], finalizers: ['baremetalhost.metal3.io/secret'], labels: { x: 'y' } }))).toBe(false);
  });

  it('passes a changed password, type or deletion request, and every create and delete', () => {
    expect(secretUpdate(secret({}), secret({}, { password: 'bmV3' }))).toBe(true);
    expect(secretUpdate(secret({}), secret({}, undefined, 'kubernetes.io/basic-auth'))).toBe(true);
    expect(secretUpdate(secret({}), secret({ deletionTimestamp: '2026-05-01T12:00:00Z' }))).toBe(true);
    expect(allows(secretContentChanged, { type: 'create', object: secret({}) })).toBe(true);
    expect(allows(secretContentChanged, { type: 'delete', object: secret({}), finalStateUnknown: false })).toBe(true);
  });
});

describe('HostFirmwareSettings filter: a host wakes when the changes it would apply differ', () => {
  const condition = (type: string, status: string, observedGeneration = 1) => ({ type, status, observedGeneration, reason: 'r', message: '', lastTransitionTime: '2026-12-01T00:00:00Z' });
  const hfs = (options: { resourceVersion: string; generation?: number; spec?: Record<string, string>; conditions?: unknown[]; settings?: Record<string, string> }): KubeObject => ({
    metadata: { name: 'h', namespace: 'n', resourceVersion: options.resourceVersion, generation: options.generation ?? 1 },
    spec: { settings: options.spec ?? {} },
    ...(options.conditions ? { status: { conditions: options.conditions, settings: options.settings ?? {} } } : {}),
  });
  const wakes = (a: KubeObject, b: KubeObject) => allows(firmwareSettingsSeenChanged, { type: 'update', oldObject: a, object: b });

  it('does not wake for the first verdict on an empty spec, nor for a new timestamp', () => {
    const judged = hfs({ resourceVersion: '2', conditions: [condition('Valid', 'True'), condition('ChangeDetected', 'False')] });
    expect(wakes(hfs({ resourceVersion: '1' }), judged)).toBe(false);
    expect(wakes(judged, hfs({ resourceVersion: '3', conditions: [{ ...condition('Valid', 'True'), lastTransitionTime: '2026-12-01T00:01:00Z' }, condition('ChangeDetected', 'False')] }))).toBe(false);
  });

  it('wakes when a change to apply appears, goes, or the spec starts or stops asking for one', () => {
    const asked = hfs({ resourceVersion: '2', generation: 2, spec: { ProcTurboMode: 'Disabled' }, conditions: [condition('Valid', 'True', 1), condition('ChangeDetected', 'False', 1)], settings: { ProcTurboMode: 'Enabled' } });
    const pending = hfs({ resourceVersion: '3', generation: 2, spec: { ProcTurboMode: 'Disabled' }, conditions: [condition('Valid', 'True', 2), condition('ChangeDetected', 'True', 2)], settings: { ProcTurboMode: 'Enabled' } });
    const applied = hfs({ resourceVersion: '4', generation: 2, spec: { ProcTurboMode: 'Disabled' }, conditions: [condition('Valid', 'True', 2), condition('ChangeDetected', 'False', 2)], settings: { ProcTurboMode: 'Disabled' } });
    expect(wakes(hfs({ resourceVersion: '1', conditions: [condition('Valid', 'True'), condition('ChangeDetected', 'False')] }), asked)).toBe(true);
    expect(wakes(asked, pending)).toBe(true);
    expect(wakes(pending, applied)).toBe(true);
  });

  it('wakes for a new object only when its spec asks for settings', () => {
    const created = (object: KubeObject) => allows(firmwareSettingsSeenChanged, { type: 'create', object });
    expect(created(hfs({ resourceVersion: '1' }))).toBe(false);
    expect(created(hfs({ resourceVersion: '1', spec: { ProcTurboMode: 'Disabled' } }))).toBe(true);
  });
});

describe('HostFirmwareComponents filter', () => {
  const hfc = (updates: Array<{ component: string; url: string }>): KubeObject => ({
    metadata: { name: 'h', namespace: 'n', resourceVersion: '1', generation: 1 },
    spec: { updates },
  });
  const created = (object: KubeObject) => allows(firmwareComponentsSeenChanged, { type: 'create', object });

  it('wakes for a new object only when its spec asks for updates', () => {
    expect(created(hfc([]))).toBe(false);
    expect(created(hfc([{ component: 'bmc', url: 'http://127.0.0.1/bmc.bin' }]))).toBe(true);
  });
});
