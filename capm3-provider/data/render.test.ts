import { describe, expect, it } from '@jest/globals';
import type { BareMetalHost } from '../../operator/api/index.ts';
import type { Machine, Metal3DataTemplateSpec, Metal3Machine } from '../api/index.ts';
import { referencedPools } from './referenced-pools.ts';
import { renderMetaData } from './render-meta-data.ts';
import { renderNetworkData } from './render-network-data.ts';
import type { PoolAddress, RenderSources } from './render-sources.ts';
import { DataRenderError } from './render-sources.ts';

const host = {
  metadata: { name: 'node-1', namespace: 'ns', labels: { rack: 'r1' }, annotations: { 'pool.example/name': 'annotated-pool', mac: '00:00:00:00:00:aa' } },
  spec: { online: true, bootMACAddress: '52:54:00:00:00:01' },
  status: { hardware: { nics: [{ name: 'eth0', mac: '52:54:00:00:00:01' }, { name: 'eth1', mac: '52:54:00:00:00:02' }] } },
} as unknown as BareMetalHost;
const m3m = { metadata: { name: 'workers-abc', namespace: 'ns', labels: { role: 'worker' }, annotations: { note: 'm3m-note' } }, spec: {} } as Metal3Machine;
const machine = { metadata: { name: 'md-0-xyz', namespace: 'ns', labels: { pool: 'p' }, annotations: { zone: 'z1' } }, spec: { clusterName: 'c' } } as unknown as Machine;
const provisioning: PoolAddress = { address: '192.168.10.11', prefix: 24, gateway: '192.168.10.1', dnsServers: ['8.8.8.8', '8.8.4.4'] };
const v6: PoolAddress = { address: 'fd00::11', prefix: 64, gateway: 'fd00::1' };
const sources: RenderSources = {
  index: 3, namespace: 'ns', m3m, machine, host,
  addresses: new Map([['provisioning', provisioning], ['v6-pool', v6], ['annotated-pool', { address: '10.0.0.5', prefix: 8 }]]),
};

describe('renderMetaData', () => {
  it('renders every source and the providerid', () => {
    const metaData = renderMetaData({
      strings: [{ key: 'role', value: 'worker' }],
      objectNames: [{ key: 'm3m', object: 'metal3machine' }, { key: 'machine', object: 'Machine' }, { key: 'host', object: 'baremetalhost' }],
      indexes: [{ key: 'plain' }, { key: 'hostname', offset: 10, step: 2, prefix: 'node-', suffix: '.lab' }],
      namespaces: [{ key: 'ns' }],
      ipAddressesFromPool: [{ key: 'ip', name: 'provisioning' }],
      prefixesFromPool: [{ key: 'prefix', name: 'provisioning' }],
      gatewaysFromPool: [{ key: 'gateway', name: 'provisioning' }],
      dnsServersFromPool: [{ key: 'dns', name: 'provisioning' }],
      fromHostInterfaces: [{ key: 'mac1', interface: 'eth1' }, { key: 'bootmac', fromBootMAC: true }],
      fromLabels: [{ key: 'rack', object: 'baremetalhost', label: 'rack' }, { key: 'missing', object: 'machine', label: 'nope' }],
      fromAnnotations: [{ key: 'zone', object: 'machine', annotation: 'zone' }, { key: 'note', object: 'metal3machine', annotation: 'note' }],
    }, sources);
    expect(metaData).toEqual({
      role: 'worker', m3m: 'workers-abc', machine: 'md-0-xyz', host: 'node-1', plain: '3', hostname: 'node-16.lab', ns: 'ns',
      ip: '192.168.10.11', prefix: '24', gateway: '192.168.10.1', dns: '8.8.8.8,8.8.4.4', mac1: '52:54:00:00:00:02',
      bootmac: '52:54:00:00:00:01', rack: 'r1', missing: '', zone: 'z1', note: 'm3m-note', providerid: 'ns/node-1/workers-abc',
    });
  });

  it('explains what cannot be rendered', () => {
    expect(() => renderMetaData({ objectNames: [{ key: 'x', object: 'cluster' }] }, sources)).toThrow("unknown object type 'cluster'");
    expect(() => renderMetaData({ fromHostInterfaces: [{ key: 'x', interface: 'eth9' }] }, sources)).toThrow("no NIC named 'eth9'");
    expect(() => renderMetaData({ ipAddressesFromPool: [{ key: 'x', name: 'nowhere' }] }, sources)).toThrow(DataRenderError);
  });
});

describe('renderNetworkData', () => {
  const template: NonNullable<Metal3DataTemplateSpec['networkData']> = {
    links: {
      ethernets: [{ type: 'phy', id: 'enp1s0', mtu: 9000, macAddress: { fromHostInterface: 'eth0' } },
        { type: 'phy', id: 'enp2s0', macAddress: { string: '52:54:00:00:00:02' } },
        { type: 'phy', id: 'enp3s0', name: 'third', macAddress: { fromAnnotation: { object: 'baremetalhost', annotation: 'mac' } } }],
      bonds: [{ id: 'bond0', bondMode: '802.3ad', bondXmitHashPolicy: 'layer3+4', bondLinks: ['enp1s0', 'enp2s0'],
        macAddress: { fromHostInterface: 'eth0' }, parameters: [{ name: 'miimon', value: 100 }] }],
      vlans: [{ id: 'vlan10', vlanID: 10, vlanLink: 'bond0', macAddress: { string: '52:54:00:00:00:01' } }],
    },
    networks: {
      ipv4: [{ id: 'prov', link: 'bond0', ipAddressFromIPPool: 'provisioning', routes: [
        { network: '0.0.0.0', prefix: 0, gateway: { fromIPPool: 'provisioning' }, services: { dnsFromIPPool: 'provisioning' } },
        { network: '10.10.0.0', prefix: 16, gateway: { string: '192.168.10.254' }, services: { dns: ['1.1.1.1'] } }] },
      { id: 'anno', link: 'enp3s0', fromPoolAnnotation: { object: 'baremetalhost', annotation: 'pool.example/name' } }],
      ipv6: [{ id: 'v6', link: 'vlan10', fromPoolRef: { name: 'v6-pool' }, routes: [{ network: '::', prefix: 0, gateway: { fromPoolRef: { name: 'v6-pool' } } }] }],
      ipv4DHCP: [{ id: 'dhcp4', link: 'enp2s0' }],
      ipv6DHCP: [{ id: 'dhcp6', link: 'enp2s0' }],
      ipv6SLAAC: [{ id: 'slaac', link: 'enp2s0' }],
    },
    services: { dns: ['9.9.9.9'], dnsFromIPPool: 'provisioning' },
  };

  it('renders links, networks and services as network_data.json', () => {
    const rendered = renderNetworkData(template, sources);
    expect(rendered.links).toEqual([
      { type: 'bond', id: 'bond0', mtu: 1500, bond_mode: '802.3ad', bond_xmit_hash_policy: 'layer3+4', bond_links: ['enp1s0', 'enp2s0'],
        ethernet_mac_address: '52:54:00:00:00:01', bond_miimon: 100 },
      { type: 'phy', id: 'enp1s0', mtu: 9000, ethernet_mac_address: '52:54:00:00:00:01' },
      { type: 'phy', id: 'enp2s0', mtu: 1500, ethernet_mac_address: '52:54:00:00:00:02' },
      { type: 'phy', id: 'enp3s0', name: 'third', mtu: 1500, ethernet_mac_address: '00:00:00:00:00:aa' },
      { type: 'vlan', id: 'vlan10', mtu: 1500, vlan_link: 'bond0', vlan_id: 10, vlan_mac_address: '52:54:00:00:00:01' },
    ]);
    expect(rendered.networks).toEqual([
      { type: 'ipv4', id: 'prov', link: 'bond0', ip_address: '192.168.10.11', netmask: '255.255.255.0', routes: [
        { network: '0.0.0.0', netmask: '0.0.0.0', gateway: '192.168.10.1', services: [{ type: 'dns', address: '8.8.8.8' }, { type: 'dns', address: '8.8.4.4' }] },
        { network: '10.10.0.0', netmask: '255.255.0.0', gateway: '192.168.10.254', services: [{ type: 'dns', address: '1.1.1.1' }] }] },
      { type: 'ipv4', id: 'anno', link: 'enp3s0', ip_address: '10.0.0.5', netmask: '255.0.0.0', routes: [] },
      { type: 'ipv6', id: 'v6', link: 'vlan10', ip_address: 'fd00::11', netmask: 'ffff:ffff:ffff:ffff::', routes: [
        { network: '::', netmask: '::', gateway: 'fd00::1', services: [] }] },
      { type: 'ipv4_dhcp', id: 'dhcp4', link: 'enp2s0', routes: [] },
      { type: 'ipv6_dhcp', id: 'dhcp6', link: 'enp2s0', routes: [] },
      { type: 'ipv6_slaac', id: 'slaac', link: 'enp2s0', routes: [] },
    ]);
    expect(rendered.services).toEqual([{ type: 'dns', address: '9.9.9.9' }, { type: 'dns', address: '8.8.8.8' }, { type: 'dns', address: '8.8.4.4' }]);
  });

  it('renders a bond without bondLinks (optional, as in CAPM3) with bond_links null', () => {
    const rendered = renderNetworkData({ links: { bonds: [{ id: 'bond0', bondMode: 'active-backup', macAddress: { string: '52:54:00:00:00:09' } }] } }, sources);
    expect(rendered.links).toEqual([{ type: 'bond', id: 'bond0', mtu: 1500, bond_mode: 'active-backup', bond_xmit_hash_policy: '', bond_links: null,
      ethernet_mac_address: '52:54:00:00:00:09' }]);
  });

  it('renders empty lists without a template part', () => {
    expect(renderNetworkData({}, sources)).toEqual({ links: [], networks: [], services: [] });
  });

  it('refuses bad MACs and bond parameters clashing with structured fields', () => {
    expect(() => renderNetworkData({ links: { ethernets: [{ type: 'phy', id: 'x', macAddress: { string: 'zz' } }] } }, sources))
      .toThrow("link x: bad MAC address 'zz'");
    expect(() => renderNetworkData({ links: { bonds: [{ id: 'b', bondMode: 'active-backup', bondLinks: [], parameters: [{ name: 'mode', value: 1 }] }] } }, sources))
      .toThrow('bond b: parameters mode would override');
  });

  it('lists every pool the template takes addresses from, with group and kind', () => {
    const pools = referencedPools({
      networkData: { ...template, networks: { ...template.networks, ipv4: [...(template.networks?.ipv4 ?? []),
        { id: 'capi', link: 'enp1s0', fromPoolRef: { name: 'capi-pool', apiGroup: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool' } }] } },
      metaData: { gatewaysFromPool: [{ key: 'g', name: 'meta-pool' }] },
    }, sources);
    expect([...pools.values()]).toEqual([
      { name: 'meta-pool', apiGroup: 'ipam.metal3.io', kind: 'IPPool' },
      { name: 'provisioning', apiGroup: 'ipam.metal3.io', kind: 'IPPool' },
      { name: 'annotated-pool', apiGroup: 'ipam.metal3.io', kind: 'IPPool' },
      { name: 'capi-pool', apiGroup: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool' },
      { name: 'v6-pool', apiGroup: 'ipam.metal3.io', kind: 'IPPool' },
    ]);
    expect(() => referencedPools({ metaData: { ipAddressesFromPool: [{ key: 'a', name: 'p' }, { key: 'b', name: 'p', kind: 'Other', apiGroup: 'x' }] } }, sources))
      .toThrow("pool 'p' is referenced as both IPPool.ipam.metal3.io and Other.x");
  });
});
