import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../runtime/index.ts';
import { attachmentReferences, cachedAttachmentReferences } from './host-references.ts';

type Interface = { name?: string; macAddress?: string; hostNetworkAttachment?: { name?: string; namespace?: string } };
const host = (namespace: string, name: string, networkInterfaces?: Interface[]): KubeObject =>
  ({ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { namespace, name }, spec: { online: true, ...(networkInterfaces ? { networkInterfaces } : {}) } });
const cache = (hosts: KubeObject[], synced = true) => ({ hasSynced: () => synced, list: () => hosts });

const HOSTS = [
  host('infra', 'worker-1', [
    { name: 'eno1', hostNetworkAttachment: { name: 'storage' } },
    { macAddress: '00:11:22:33:44:55', hostNetworkAttachment: { name: 'storage', namespace: 'infra' } },
    { name: 'eno3', hostNetworkAttachment: { name: 'mgmt' } },
  ]),
  host('infra', 'worker-0', [{ name: 'eno1', hostNetworkAttachment: { name: 'storage' } }]),
  // Same name, other namespace: its own namespace's attachment, not infra's.
  host('tenant', 'edge-0', [{ name: 'eno1', hostNetworkAttachment: { name: 'storage' } }]),
  // Across namespaces by the entry's namespace.
  host('tenant', 'edge-1', [{ name: 'eth0', hostNetworkAttachment: { name: 'storage', namespace: 'infra' } }]),
  host('infra', 'no-interfaces'),
  host('infra', 'unattached', [{ name: 'eno1' }]),
];

describe('BareMetalHost interfaces referring to an attachment', () => {
  it('are found by name, in the entry\'s namespace or else the host\'s, named by interface name or MAC', () => {
    const find = cachedAttachmentReferences(cache(HOSTS));
    expect(find({ namespace: 'infra', name: 'storage' }))
      .toEqual(['infra/worker-0[eno1]', 'infra/worker-1[eno1]', 'infra/worker-1[00:11:22:33:44:55]', 'tenant/edge-1[eth0]']);
    expect(find({ namespace: 'tenant', name: 'storage' })).toEqual(['tenant/edge-0[eno1]']);
    expect(find({ namespace: 'infra', name: 'mgmt' })).toEqual(['infra/worker-1[eno3]']);
    expect(find({ namespace: 'infra', name: 'unused' })).toEqual([]);
    expect(attachmentReferences({ namespace: 'infra', name: 'storage' }, [])).toEqual([]);
  });

  it('cannot be told from a cache that has not synced, or a host that cannot be read', () => {
    expect(() => cachedAttachmentReferences(cache(HOSTS, false))({ namespace: 'infra', name: 'storage' }))
      .toThrow('the BareMetalHost cache of this replica is not synced');
    const unreadable = { ...host('infra', 'odd'), spec: { networkInterfaces: 'eno1' } };
    expect(() => cachedAttachmentReferences(cache([unreadable]))({ namespace: 'infra', name: 'storage' }))
      .toThrow('BareMetalHost infra/odd cannot be read: spec.networkInterfaces: ');
  });
});
