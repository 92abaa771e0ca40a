import { describe, expect, it } from '@jest/globals';
import { allows } from '../../runtime/predicates.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { hostChanged, secretContentChanged } from './predicates.ts';

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
