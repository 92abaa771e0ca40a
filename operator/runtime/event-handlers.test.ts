import { describe, it, expect } from '@jest/globals';
import { keysForEvent, requestForObject, requestsForOwner } from './event-handlers.ts';
import type { MapFunc } from './event-handlers.ts';
import type { KubeObject, OwnerReference } from './kube-object.ts';

const hostRef = (name: string, controller?: boolean): OwnerReference => ({
  apiVersion: 'metal3.io/v1alpha1',
  kind: 'BareMetalHost',
  name,
  uid: `uid-${name}`,
  controller,
});
const secret = (owners: OwnerReference[], namespace = 'ns'): KubeObject => ({
  metadata: { name: 's', namespace, ownerReferences: owners },
});
const Host = { group: 'metal3.io', kind: 'BareMetalHost', namespaced: true };

describe('event handlers', () => {
  it('maps an object to its own key', () => {
    expect(keysForEvent(requestForObject, { type: 'create', object: secret([]) })).toEqual(['ns/s']);
  });

  it('maps to the controlling owner of the matching group and kind, in the same namespace', () => {
    const object = secret([
      hostRef('h1', true),
      hostRef('h2', false),
      { apiVersion: 'other.io/v1', kind: 'BareMetalHost', name: 'x', uid: 'u', controller: true },
      { apiVersion: 'metal3.io/v1beta1', kind: 'Other', name: 'y', uid: 'u', controller: true },
    ]);
    expect(keysForEvent(requestsForOwner(Host), { type: 'create', object })).toEqual(['ns/h1']);
    expect(keysForEvent(requestsForOwner(Host, { controllerOnly: false }), { type: 'create', object })).toEqual([
      'ns/h1',
      'ns/h2',
    ]);
  });

  it('ignores the version of the owner reference', () => {
    const object = secret([{ ...hostRef('h1', true), apiVersion: 'metal3.io/v1beta9' }]);
    expect(keysForEvent(requestsForOwner(Host), { type: 'delete', object, finalStateUnknown: false })).toEqual(['ns/h1']);
  });

  it('uses no namespace for cluster-scoped owners', () => {
    const object = secret([{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u', controller: true }]);
    expect(keysForEvent(requestsForOwner({ group: '', kind: 'Node', namespaced: false }), { type: 'create', object })).toEqual([
      'n1',
    ]);
  });

  it('maps both old and new objects on update, without duplicates', () => {
    const before = secret([hostRef('h1', true)]);
    const after = secret([hostRef('h2', true)]);
    expect(keysForEvent(requestsForOwner(Host), { type: 'update', oldObject: before, object: after })).toEqual([
      'ns/h1',
      'ns/h2',
    ]);
    expect(keysForEvent(requestsForOwner(Host), { type: 'update', oldObject: after, object: after })).toEqual(['ns/h2']);
  });

  it('supports arbitrary referrer maps', () => {
    const referrers: MapFunc = (o) => [{ namespace: o.metadata.namespace, name: `host-of-${o.metadata.name}` }];
    expect(keysForEvent(referrers, { type: 'create', object: secret([]) })).toEqual(['ns/host-of-s']);
  });
});
