import { describe, expect, it, jest } from '@jest/globals';
import { silentLogger } from '../runtime/index.ts';
import type { AdmissionRequest } from '../runtime/index.ts';
import type { AttachmentName, FindAttachmentReferences } from './hostnetworkattachment/index.ts';
import { reviewHostNetworkAttachment } from './hostnetworkattachment-validator.ts';

const attachment = (spec: Record<string, unknown> | undefined, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'HostNetworkAttachment', metadata: { namespace: 'infra', name: 'storage', ...metadata }, ...(spec ? { spec } : {}),
});
const TRUNK = { mode: 'trunk', nativeVLAN: 200, allowedVLANs: ['200-203'], mtu: 9000 };
const REFERENCES = ['infra/worker-0[eno1]', 'tenant/edge-1[00:11:22:33:44:55]'];

type Request = { operation: AdmissionRequest['operation']; namespace?: string; name?: string; object?: unknown; oldObject?: unknown };

/** A review against a stand-in for the host cache, which records what it was asked. */
async function review(request: Request, find: FindAttachmentReferences = async () => []) {
  const lookups: AttachmentName[] = [];
  const findReferences = (name: AttachmentName) => {
    lookups.push(name);
    return find(name);
  };
  const { response } = await reviewHostNetworkAttachment({ uid: 'u', ...request }, { logger: silentLogger(), findReferences });
  return { response, lookups };
}
const referenced: FindAttachmentReferences = async () => REFERENCES;
const unreadable: FindAttachmentReferences = async () => {
  throw new Error('the BareMetalHost cache of this replica is not synced');
};

describe('the HostNetworkAttachment webhook', () => {
  it('creates what BMO accepts, without looking at hosts', async () => {
    for (const spec of [TRUNK, { mode: 'access', nativeVLAN: 100, mtu: 1500 }, { mode: 'hybrid', nativeVLAN: 1, allowedVLANs: ['10', '20-30'] }]) {
      const { response, lookups } = await review({ operation: 'CREATE', namespace: 'infra', object: attachment(spec) }, referenced);
      expect(response).toEqual({ uid: 'u', allowed: true });
      expect(lookups).toEqual([]);
    }
  });

  it('refuses on create what BMO refuses, every error at once, as a 403', async () => {
    const { response } = await review({ operation: 'CREATE', namespace: 'infra', object: attachment({ mode: 'access', nativeVLAN: 1, allowedVLANs: ['100', '300-200', '5000'] }) });
    expect(response).toMatchObject({
      allowed: false,
      status: { code: 403, reason: 'Forbidden', message: '[allowedVLANs cannot be specified for access mode, allowedVLANs[1] "300-200": range start (300) must be less than end (200), allowedVLANs[2] "5000": VLAN ID 5000 out of range 1-4094]' },
    });
    expect((await review({ operation: 'CREATE', object: attachment({ mode: 'access', nativeVLAN: 1, allowedVLANs: ['1'] }) })).response.status?.message)
      .toBe('allowedVLANs cannot be specified for access mode');
  });

  it('refuses an object that is not a HostNetworkAttachment', async () => {
    expect((await review({ operation: 'CREATE', object: attachment({ mode: 'stacked', nativeVLAN: 1 }) })).response.status?.message)
      .toMatch(/^not a valid HostNetworkAttachment: spec\.mode: /);
  });

  it('allows an update that leaves the spec as it was, referenced or not, even a spec BMO would now refuse', async () => {
    const old = attachment(TRUNK);
    const relabelled = attachment(TRUNK, { labels: { purpose: 'storage' } });
    expect(await review({ operation: 'UPDATE', namespace: 'infra', name: 'storage', object: relabelled, oldObject: old }, referenced))
      .toEqual({ response: { uid: 'u', allowed: true }, lookups: [] });
    // Go's semantic equality: no allowedVLANs and an empty list are the same spec.
    const empty = { mode: 'access', nativeVLAN: 1, allowedVLANs: [] };
    expect((await review({ operation: 'UPDATE', object: attachment({ mode: 'access', nativeVLAN: 1 }), oldObject: attachment(empty) }, referenced)).response.allowed).toBe(true);
    const stale = attachment({ mode: 'access', nativeVLAN: 1, allowedVLANs: ['7'] });
    expect((await review({ operation: 'UPDATE', object: stale, oldObject: stale }, referenced)).response.allowed).toBe(true);
  });

  it('allows a spec change while no host refers to the old attachment', async () => {
    const { response, lookups } = await review({ operation: 'UPDATE', namespace: 'infra', name: 'storage', object: attachment({ ...TRUNK, mtu: 1500 }), oldObject: attachment(TRUNK) });
    expect(response).toEqual({ uid: 'u', allowed: true });
    expect(lookups).toEqual([{ namespace: 'infra', name: 'storage' }]);
  });

  it('refuses a spec change while hosts refer to it, naming each host and interface', async () => {
    const { response, lookups } = await review({ operation: 'UPDATE', namespace: 'infra', name: 'storage', object: attachment({ ...TRUNK, nativeVLAN: 300 }), oldObject: attachment(TRUNK) }, referenced);
    expect(response).toMatchObject({ allowed: false, status: { code: 403, message: `HostNetworkAttachment spec is immutable while referenced by BMH interfaces: ${REFERENCES.join(', ')}` } });
    expect(lookups).toEqual([{ namespace: 'infra', name: 'storage' }]);
  });

  it('refuses a bad new spec with its errors before looking at any host', async () => {
    const { response, lookups } = await review({ operation: 'UPDATE', object: attachment({ ...TRUNK, allowedVLANs: ['0'] }), oldObject: attachment(TRUNK) }, referenced);
    expect(response.status?.message).toBe('allowedVLANs[0] "0": VLAN ID 0 out of range 1-4094');
    expect(lookups).toEqual([]);
  });

  it('refuses a spec change when the hosts cannot be read (fails closed)', async () => {
    const { response } = await review({ operation: 'UPDATE', object: attachment({ ...TRUNK, mtu: 1500 }), oldObject: attachment(TRUNK) }, unreadable);
    expect(response).toMatchObject({
      allowed: false, status: { code: 403, message: 'failed to check BMH references, cannot safely allow update: the BareMetalHost cache of this replica is not synced' },
    });
  });

  it('allows deleting an attachment no host refers to', async () => {
    const find = jest.fn<FindAttachmentReferences>(async () => []);
    expect((await review({ operation: 'DELETE', namespace: 'infra', name: 'storage', oldObject: attachment(TRUNK) }, find)).response).toEqual({ uid: 'u', allowed: true });
    expect(find).toHaveBeenCalledWith({ namespace: 'infra', name: 'storage' });
  });

  it('refuses deleting an attachment hosts refer to, as BMO\'s Forbidden, with a warning naming them', async () => {
    const { response } = await review({ operation: 'DELETE', namespace: 'infra', name: 'storage', oldObject: attachment(TRUNK) }, referenced);
    expect(response).toEqual({
      uid: 'u', allowed: false,
      warnings: [`This attachment is referenced by: ${REFERENCES.join(', ')}`],
      status: { code: 403, reason: 'Forbidden', message: `hostnetworkattachments.metal3.io "storage" is forbidden: cannot delete attachment while referenced by BMH interfaces: ${REFERENCES.join(', ')}` },
    });
  });

  it('finds the attachment by its object when the request does not name it', async () => {
    const { lookups } = await review({ operation: 'DELETE', oldObject: attachment(undefined, { namespace: 'tenant', name: 'edge' }) });
    expect(lookups).toEqual([{ namespace: 'tenant', name: 'edge' }]);
  });

  it('refuses deleting when the hosts cannot be read (fails closed)', async () => {
    expect((await review({ operation: 'DELETE', namespace: 'infra', name: 'storage', oldObject: attachment(TRUNK) }, unreadable)).response).toMatchObject({
      allowed: false, status: { code: 403, message: 'failed to check BMH references: the BareMetalHost cache of this replica is not synced' },
    });
  });
});
