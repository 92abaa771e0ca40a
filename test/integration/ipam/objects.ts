import type { Kubectl } from '../../support/kubectl.ts';
import { ClusterApiObjects } from '../capm3/objects.ts';

export const IPAM = 'ipam.metal3.io/v1alpha1';
export const CAPI_IPAM = 'ipam.cluster.x-k8s.io/v1beta2';
export const POOLS = 'ippools.ipam.metal3.io';
export const CLAIMS = 'ipclaims.ipam.metal3.io';
export const ADDRESSES = 'ipaddresses.ipam.metal3.io';
export const CAPI_CLAIMS = 'ipaddressclaims.ipam.cluster.x-k8s.io';
export const CAPI_ADDRESSES = 'ipaddresses.ipam.cluster.x-k8s.io';

export interface Ref { name?: string; namespace?: string }
export interface IpAddressObject {
  metadata: { name: string; finalizers?: string[]; ownerReferences?: { kind: string; name: string }[] };
  spec: { address: string; prefix?: number; gateway?: string; dnsServers?: string[]; claim: Ref; pool: Ref };
}
export interface CapiIpAddressObject {
  metadata: { name: string; finalizers?: string[] };
  spec: { address: string; prefix: number; gateway?: string; claimRef: { name: string }; poolRef: { apiGroup: string; kind: string; name: string } };
}
export interface IpClaimObject {
  metadata: { name: string; finalizers?: string[] };
  status?: { address?: Ref; errorMessage?: string };
}
export interface IpPoolObject {
  metadata: { name: string; finalizers?: string[]; deletionTimestamp?: string };
  status?: { indexes?: Record<string, string>; lastUpdated?: string };
}

/** IPAM objects of one test namespace, written and read with the admin kubeconfig, as a user would. */
export class IpamObjects extends ClusterApiObjects {
  readonly #kubectl: Kubectl;

  constructor(kubectl: Kubectl, namespace: string) {
    super(kubectl, namespace);
    this.#kubectl = kubectl;
  }

  pool(name: string, spec: Record<string, unknown>): Promise<string> {
    return this.apply([{ apiVersion: IPAM, kind: 'IPPool', metadata: { name, namespace: this.namespace }, spec }]);
  }

  claimObject(name: string, pool: string): unknown {
    return { apiVersion: IPAM, kind: 'IPClaim', metadata: { name, namespace: this.namespace }, spec: { pool: { name: pool } } };
  }

  capiClaimObject(name: string, pool: string): unknown {
    return { apiVersion: CAPI_IPAM, kind: 'IPAddressClaim', metadata: { name, namespace: this.namespace },
      spec: { poolRef: { apiGroup: 'ipam.metal3.io', kind: 'IPPool', name: pool } } };
  }

  async list<T>(kind: string): Promise<T[]> {
    return (await this.#kubectl.json<{ items: T[] }>(['get', kind, '-n', this.namespace])).items;
  }

  delete(kind: string, name: string): Promise<string> {
    return this.#kubectl.ok(['delete', kind, name, '-n', this.namespace, '--wait=false']);
  }

  /** The claim's allocated IPAddress once its status names one. */
  async allocated(name: string): Promise<IpAddressObject | undefined> {
    const claim = await this.find<IpClaimObject>(CLAIMS, name);
    const addressName = claim?.status?.address?.name;
    return addressName ? this.find<IpAddressObject>(ADDRESSES, addressName) : undefined;
  }

  /** events.k8s.io Events about one object. */
  async eventsAbout(name: string): Promise<{ reason: string; type: string; note?: string }[]> {
    const events = await this.#kubectl.json<{ items: { reason: string; type: string; note?: string; regarding?: { name?: string } }[] }>(
      ['get', 'events.events.k8s.io', '-n', this.namespace]);
    return events.items.filter((event) => event.regarding?.name === name);
  }
}
