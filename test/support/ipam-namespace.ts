import type { Kubectl } from './kubectl.ts';
import { deleteNamespace } from './namespaces.ts';

/** Every kind the IPAM puts finalizers on; with no IPAM left running they would hold the namespace. */
const IPAM_KINDS = [
  'ippools.ipam.metal3.io', 'ipclaims.ipam.metal3.io', 'ipaddresses.ipam.metal3.io',
  'ipaddressclaims.ipam.cluster.x-k8s.io', 'ipaddresses.ipam.cluster.x-k8s.io',
];

/** Removes everything an IPAM test left in its namespace (after its IPAM processes stopped), then the namespace. */
export async function deleteIpamNamespace(kubectl: Kubectl, namespace: string): Promise<void> {
  for (const kind of IPAM_KINDS) {
    const names = (await kubectl.ok(['get', kind, '-n', namespace, '-o', 'name'])).split('\n').filter(Boolean);
    for (const name of names) await kubectl.run(['patch', name, '-n', namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  }
  await kubectl.run(['delete', IPAM_KINDS.join(','), '--all', '-n', namespace, '--wait=false']);
  await deleteNamespace(kubectl, namespace);
}
