import { describe, expect, it } from '@jest/globals';
import { nodeIdentity } from './node-identity.ts';

const interfaces = [
  { ipv4_address: null },
  { ipv4_address: '192.168.111.20' },
  { ipv4_address: '127.0.0.20' },
] as Parameters<typeof nodeIdentity>[0]['inventory']['interfaces'];
const bmoMetaData = { uuid: '7c5b1a2e-0d7e-4c39-9f0a-3b1f2f9e6a10', 'local-hostname': 'bmh-host', local_hostname: 'bmh-host', name: 'bmh-name' };

describe('nodeIdentity', () => {
  it('names the Node after the user data hostname and labels it with the meta_data uuid', () => {
    expect(nodeIdentity({
      configDrive: { metaData: bmoMetaData, userData: '#cloud-config\nhostname: Worker-0\n' },
      systemName: 'server-0',
      inventory: { interfaces },
    })).toEqual({ name: 'worker-0', nameSource: 'user-data', labels: { 'metal3.io/uuid': bmoMetaData.uuid }, uuid: bmoMetaData.uuid, providerID: null, internalIp: '127.0.0.20' });
  });

  it('with kubeadm, takes the Node name and labels it set the kubelet up with: no metal3.io/uuid unless its node-labels say so', () => {
    const withKubeadm = (kubelet: { name: string | undefined; labels: Record<string, string>; providerID?: string }) => nodeIdentity({
      configDrive: { metaData: bmoMetaData, userData: '#cloud-config\nhostname: worker-0\n' }, systemName: 'server-0', inventory: { interfaces },
      kubelet: { providerID: undefined, ...kubelet } });
    expect(withKubeadm({ name: 'bmh-name', labels: {} })).toEqual({ name: 'bmh-name', nameSource: 'kubeadm', labels: {}, uuid: null, providerID: null, internalIp: '127.0.0.20' });
    expect(withKubeadm({ name: undefined, labels: { 'metal3.io/uuid': 'from-args', tier: 'a' } }))
      .toEqual({ name: 'worker-0', nameSource: 'user-data', labels: { 'metal3.io/uuid': 'from-args', tier: 'a' }, uuid: 'from-args', providerID: null, internalIp: '127.0.0.20' });
    expect(withKubeadm({ name: 'bmh-name', labels: {}, providerID: 'metal3://ns/bmh-name/m3m' })).toMatchObject({ providerID: 'metal3://ns/bmh-name/m3m' });
  });

  it('falls back to meta_data local-hostname, then name, then the system name', () => {
    const identity = (metaData: Record<string, unknown>, userData?: string) =>
      nodeIdentity({ configDrive: { metaData, userData }, systemName: 'Server-0', inventory: { interfaces: [] } });
    expect(identity(bmoMetaData, '#cloud-config\nusers: []\n')).toMatchObject({ name: 'bmh-host', nameSource: 'meta-data-hostname' });
    expect(identity({ name: 'bmh-name' })).toMatchObject({ name: 'bmh-name', nameSource: 'meta-data-name' });
    expect(identity({})).toMatchObject({ name: 'server-0', nameSource: 'system-name', uuid: null, internalIp: '127.0.0.1' });
    expect(nodeIdentity({ configDrive: undefined, systemName: 'server-1', inventory: { interfaces } }))
      .toMatchObject({ name: 'server-1', uuid: null, internalIp: '127.0.0.20' });
  });

  it('skips names that are no valid Node name and uuids that are no label value', () => {
    const identity = nodeIdentity({
      configDrive: { metaData: { 'local-hostname': 'under_score', name: 'ns~host', uuid: 'not a label' }, userData: '#cloud-config\nhostname: "-bad-"\n' },
      systemName: 'Server_0',
      inventory: { interfaces: [] },
    });
    expect(identity).toMatchObject({ name: 'server-0', nameSource: 'system-name', uuid: null });
  });
});
