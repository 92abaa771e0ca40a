import { describe, expect, it } from '@jest/globals';
import { allows } from '../../runtime/predicates.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { hostChanged } from './predicates.ts';

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
