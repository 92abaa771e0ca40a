import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../runtime/index.ts';
import { attachmentReferences, hostAttachmentReferences } from './host-references.ts';

type Interface = { name?: string; macAddress?: string; hostNetworkAttachment?: { name?: string; namespace?: string } };
const host = (namespace: string, name: string, networkInterfaces?: Interface[]): KubeObject =>
  ({ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { namespace, name }, spec: { online: true, ...(networkInterfaces ? { networkInterfaces } : {}) } });
const cache = (hosts: KubeObject[], synced = true) => ({ hasSynced: () => synced, list: () => hosts });
const noList = async (): Promise<KubeObject[]> => { throw new Error('listed hosts although the cache is synced'); };

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
  it('are found by name, in the entry\'s namespace or else the host\'s, named by interface name or MAC', async () => {
    const find = hostAttachmentReferences({ cache: cache(HOSTS), listHosts: noList });
    await expect(find({ namespace: 'infra', name: 'storage' }))
      .resolves.toEqual(['infra/worker-0[eno1]', 'infra/worker-1[eno1]', 'infra/worker-1[00:11:22:33:44:55]', 'tenant/edge-1[eth0]']);
    await expect(find({ namespace: 'tenant', name: 'storage' })).resolves.toEqual(['tenant/edge-0[eno1]']);
    await expect(find({ namespace: 'infra', name: 'mgmt' })).resolves.toEqual(['infra/worker-1[eno3]']);
    await expect(find({ namespace: 'infra', name: 'unused' })).resolves.toEqual([]);
    expect(attachmentReferences({ namespace: 'infra', name: 'storage' }, [])).toEqual([]);
  });

  it('are listed from the API server on a replica whose cache has not synced (a standby)', async () => {
    const listed: string[] = [];
    const find = hostAttachmentReferences({ cache: cache([], false), listHosts: async () => { listed.push('hosts'); return HOSTS; } });
    await expect(find({ namespace: 'tenant', name: 'storage' })).resolves.toEqual(['tenant/edge-0[eno1]']);
    expect(listed).toEqual(['hosts']);
    const failing = hostAttachmentReferences({ cache: cache([], false), listHosts: async () => { throw new Error('forbidden'); } });
    await expect(find({ namespace: 'infra', name: 'unused' })).resolves.toEqual([]);
    await expect(failing({ namespace: 'infra', name: 'storage' })).rejects.toThrow('forbidden');
  });

  it('cannot be told from a host that cannot be read', async () => {
    const unreadable = { ...host('infra', 'odd'), spec: { networkInterfaces: 'eno1' } };
    await expect(hostAttachmentReferences({ cache: cache([unreadable]), listHosts: noList })({ namespace: 'infra', name: 'storage' }))
      .rejects.toThrow('BareMetalHost infra/odd cannot be read: spec.networkInterfaces: ');
  });
});
