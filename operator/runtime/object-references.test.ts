import { describe, it, expect } from '@jest/globals';
import type { KubeObject } from './kube-object.ts';
import {
  AlreadyOwnedError,
  getControllerOf,
  objectReference,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
} from './object-references.ts';

const host: KubeObject = {
  apiVersion: 'metal3.io/v1alpha1',
  kind: 'BareMetalHost',
  metadata: { name: 'h1', namespace: 'ns', uid: 'uid-h1', resourceVersion: '7' },
};
const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns' } };

describe('object references', () => {
  it('builds an ObjectReference', () => {
    expect(objectReference(host)).toEqual({ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', namespace: 'ns', name: 'h1', uid: 'uid-h1' });
    expect(objectReference(host, { withResourceVersion: true }).resourceVersion).toBe('7');
  });

  it('sets a controller reference without mutating the input, idempotently', () => {
    const owned = setControllerReference(secret, host);
    expect(secret.metadata.ownerReferences).toBeUndefined();
    expect(owned.metadata.ownerReferences).toEqual([
      { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'h1', uid: 'uid-h1', controller: true, blockOwnerDeletion: true },
    ]);
    expect(setControllerReference(owned, host).metadata.ownerReferences).toHaveLength(1);
    expect(getControllerOf(owned)?.name).toBe('h1');
  });

  it('refuses a second controller and cross-namespace owners', () => {
    const owned = setControllerReference(secret, host);
    const other = { ...host, metadata: { ...host.metadata, name: 'h2', uid: 'uid-h2' } };
    expect(() => setControllerReference(owned, other)).toThrow(AlreadyOwnedError);
    const elsewhere = { ...host, metadata: { ...host.metadata, namespace: 'other' } };
    expect(() => setControllerReference(secret, elsewhere)).toThrow(/cross-namespace/);
  });

  it('adds and removes plain owner references', () => {
    const owned = setOwnerReference(secret, host);
    expect(owned.metadata.ownerReferences?.[0]?.controller).toBeUndefined();
    expect(removeOwnerReference(owned, host).metadata.ownerReferences).toEqual([]);
  });
});
