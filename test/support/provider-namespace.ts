import type { Kubectl } from './kubectl.ts';
import { deleteNamespace } from './namespaces.ts';

/** Kinds the provider or operator put finalizers on; with nobody left to reconcile them they would hold the namespace. */
const FINALIZED_KINDS = [
  'm3m', 'm3c', 'm3r', 'bmh', 'hardwaredata', 'm3dt', 'm3dc', 'm3d', 'ipclaims.ipam.metal3.io', 'ipaddresses.ipam.metal3.io', 'ippools.ipam.metal3.io',
];
const TEST_KINDS = 'm3m,m3mt,m3c,m3r,m3rt,m3dt,m3dc,m3d,bmh,hardwaredata,machines,machinesets,machinedeployments,clusters,secrets';

/** Removes everything a provider test left in its namespace (after its provider has stopped), then the namespace. */
export async function deleteProviderNamespace(kubectl: Kubectl, namespace: string): Promise<void> {
  for (const kind of FINALIZED_KINDS) {
    // The IPAM kinds are not installed in every test.
    const listed = await kubectl.run(['get', kind, '-n', namespace, '-o', 'name']);
    const names = listed.code === 0 ? listed.stdout.split('\n').filter(Boolean) : [];
    for (const name of names) await kubectl.run(['patch', name, '-n', namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  }
  await kubectl.run(['delete', TEST_KINDS, '--all', '-n', namespace, '--wait=false']);
  await deleteNamespace(kubectl, namespace);
}
