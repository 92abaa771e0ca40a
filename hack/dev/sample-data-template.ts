import { INFRA_API_VERSION } from './sample-cluster.ts';

export interface SampleIpPoolOptions {
  namespace: string;
  name: string;
  clusterName: string;
  /** First and last address handed out, their prefix length, gateway and DNS servers. */
  start: string;
  end: string;
  prefix: number;
  gateway: string;
  dnsServers: string[];
  /** Addresses kept for named claims (`<host>-<pool>` with CAPM3's `--enable-bmh-name-based-preallocation`). */
  preAllocations?: Record<string, string>;
}

/** A Metal3 IPPool (ipam.metal3.io), as a Metal3 user declares the addresses of a provisioning network. */
export function sampleIpPool(options: SampleIpPoolOptions): Record<string, unknown> {
  return {
    apiVersion: 'ipam.metal3.io/v1alpha1', kind: 'IPPool',
    metadata: { name: options.name, namespace: options.namespace, labels: { 'cluster.x-k8s.io/cluster-name': options.clusterName } },
    spec: {
      clusterName: options.clusterName, namePrefix: options.name,
      pools: [{ start: options.start, end: options.end }],
      prefix: options.prefix, gateway: options.gateway, dnsServers: options.dnsServers,
      ...(options.preAllocations === undefined ? {} : { preAllocations: options.preAllocations }),
    },
  };
}

/**
 * A Metal3DataTemplate giving each machine one static address from `pool` on its first NIC
 * (enp1s0, MAC from inspection), a default route via the pool's gateway and its DNS servers,
 * and meta data naming the machine, its index and its address.
 */
export function sampleDataTemplate(options: { namespace: string; name: string; clusterName: string; pool: string }): Record<string, unknown> {
  return {
    apiVersion: INFRA_API_VERSION, kind: 'Metal3DataTemplate',
    metadata: { name: options.name, namespace: options.namespace, labels: { 'cluster.x-k8s.io/cluster-name': options.clusterName } },
    spec: {
      clusterName: options.clusterName,
      metaData: {
        objectNames: [{ key: 'name', object: 'machine' }],
        indexes: [{ key: 'node-index', prefix: 'worker-' }],
        ipAddressesFromPool: [{ key: 'provisioning-ip', name: options.pool }],
        fromHostInterfaces: [{ key: 'boot-mac', fromBootMAC: true }],
      },
      networkData: {
        links: { ethernets: [{ type: 'phy', id: 'enp1s0', mtu: 1500, macAddress: { fromHostInterface: 'enp1s0' } }] },
        networks: { ipv4: [{ id: 'provisioning', link: 'enp1s0', ipAddressFromIPPool: options.pool,
          routes: [{ network: '0.0.0.0', prefix: 0, gateway: { fromIPPool: options.pool } }] }] },
        services: { dnsFromIPPool: options.pool },
      },
    },
  };
}
