import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NodeRecord, SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { kubernetesVersion } from '../../../hack/stack/kube.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { getNode, simulatorRegistersNodesIn, workloadKubeconfig, workloadKubectl, type KubeNode } from './workload-cluster.ts';

/*
 * The agent simulator plays the installed OS too: after Ironic deploys a server and boots it
 * from disk, a Node named after the config drive's cloud-init hostname and labelled with the
 * meta_data uuid (BMO's BareMetalHost UID) appears in the workload cluster, and it goes when
 * Ironic deprovisions the server. Only Ironic's own API drives the server here.
 *
 * The workload cluster is the stack's `env.workload` API server; on a stack without one the
 * main API server stands in (see workload-cluster.ts).
 */
const env = readStackEnv();
const ironic = new RawIronic(env.ironicUrl);
const kubectl = workloadKubectl(env);
const image = env.images[0]!;
// Emulated server 28 is this file's (see test/support/test-stack.ts).
const SYSTEM_INDEX = 28;
const HOSTNAME = 'installed-os-worker';
const BMH_UID = '3f0c6a1e-5b7d-4e2a-9c1f-8d6e4b2a7c90';
const configdrive = {
  meta_data: { uuid: BMH_UID, 'metal3-namespace': 'test', 'metal3-name': 'bmh-6', 'local-hostname': 'bmh-6', local_hostname: 'bmh-6', name: 'bmh-6' },
  user_data: `#cloud-config\nhostname: ${HOSTNAME}\n`,
};

async function nodeRecords(systemUuid: string): Promise<NodeRecord[]> {
  const response = await fetch(`${env.agentSimulatorUrl}/records/${systemUuid}`);
  return ((await response.json()) as SystemRecords).nodes;
}

async function diskBoots(systemUuid: string): Promise<number> {
  const response = await fetch(`${env.agentSimulatorUrl}/records/${systemUuid}`);
  return ((await response.json()) as SystemRecords).boots.filter((boot) => boot.into === 'disk').length;
}

const ready = (node: KubeNode) => node.status?.conditions?.find((condition) => condition.type === 'Ready')?.status;

describe('the installed OS of a deployed server', () => {
  let restoreSimulator: () => Promise<void> = async () => {};
  let ironicNode: string | undefined;

  beforeAll(async () => {
    if (env.systems.length <= SYSTEM_INDEX) {
      throw new Error(`this test needs a stack with at least ${SYSTEM_INDEX + 1} systems, this one has ${env.systems.length}`);
    }
    restoreSimulator = await simulatorRegistersNodesIn(workloadKubeconfig(env));
    await kubectl.run(['delete', 'node', HOSTNAME, '--ignore-not-found', '--wait=true']);
  }, 120_000);

  afterAll(async () => {
    await kubectl.run(['delete', 'node', HOSTNAME, '--ignore-not-found']);
    kubectl.dispose();
    await restoreSimulator();
  }, 120_000);

  it('registers a Ready Node named after the user data hostname, keeps it over a reboot, deletes it on undeploy', async () => {
    const system = env.systems[SYSTEM_INDEX]!;
    // A stale Node of the same name (an earlier life of the host) is taken over, not a failure.
    const stale = await kubectl.run(['create', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'Node', metadata: { name: HOSTNAME, labels: { 'metal3.io/uuid': 'stale', team: 'kept' } },
    }));
    expect(stale.stderr).toBe('');

    const node = await ironic.request<{ uuid: string }>('POST', '/v1/nodes', {
      name: 'installed-os-test',
      driver: 'redfish',
      boot_interface: 'ipxe',
      driver_info: {
        redfish_address: env.sushyUrl,
        redfish_system_id: `/redfish/v1/Systems/${system.uuid}`,
        ...(env.bmcCredentials ? { redfish_username: env.bmcCredentials.username, redfish_password: env.bmcCredentials.password } : {}),
      },
      // Cleaning is proven elsewhere; the deprovisioning power off is what ends the Node here.
      automated_clean: false,
    });
    ironicNode = node.uuid;
    await ironic.request('POST', '/v1/ports', { address: system.macs[0], node_uuid: node.uuid, pxe_enabled: true });
    await ironic.provision(node.uuid, { target: 'manage' });
    await ironic.waitForState(node.uuid, 'manageable');
    await ironic.provision(node.uuid, { target: 'provide' });
    await ironic.waitForState(node.uuid, 'available');
    const recordsBefore = (await nodeRecords(system.uuid)).length;

    await ironic.request('PATCH', `/v1/nodes/${node.uuid}`, [
      { op: 'add', path: '/instance_info/image_source', value: image.url },
      { op: 'add', path: '/instance_info/image_os_hash_algo', value: 'sha256' },
      { op: 'add', path: '/instance_info/image_os_hash_value', value: image.sha256 },
    ]);
    await ironic.provision(node.uuid, { target: 'active', configdrive });
    await ironic.waitForState(node.uuid, 'active');

    const registered = await waitFor(async () => {
      const found = await getNode(kubectl, HOSTNAME);
      return found?.metadata.labels?.['metal3.io/uuid'] === BMH_UID && ready(found) === 'True' ? found : undefined;
    }, { what: `Node ${HOSTNAME} with metal3.io/uuid=${BMH_UID} and Ready=True`, timeoutMs: 90_000 });
    expect(registered.metadata.labels).toMatchObject({ 'kubernetes.io/hostname': HOSTNAME, team: 'kept' });
    expect(registered.status?.addresses).toContainEqual({ type: 'Hostname', address: HOSTNAME });
    expect(registered.status?.nodeInfo?.systemUUID).toBe(system.uuid);
    // No kubeadm in this user data to name a version: the kubelet is as new as the workload API server.
    expect(registered.status?.nodeInfo?.kubeletVersion).toBe(kubernetesVersion());
    expect((await nodeRecords(system.uuid)).slice(recordsBefore)).toEqual([
      expect.objectContaining({ kind: 'node-registered', node: HOSTNAME, uuid: BMH_UID }),
    ]);

    // Ironic's Redfish reboot is a power off and on while the node stays active: the Node stays.
    const bootsBeforeReboot = await diskBoots(system.uuid);
    await ironic.request('PUT', `/v1/nodes/${node.uuid}/states/power`, { target: 'rebooting' });
    await waitFor(async () => ((await diskBoots(system.uuid)) > bootsBeforeReboot ? true : undefined),
      { what: 'a boot from disk after the reboot', timeoutMs: 90_000 });
    const afterReboot = await waitFor(async () => {
      const records = (await nodeRecords(system.uuid)).slice(recordsBefore);
      return records.length >= 2 ? records : undefined;
    }, { what: 'the Node registered again after the reboot', timeoutMs: 60_000 });
    expect(afterReboot.map((record) => record.kind)).toEqual(['node-registered', 'node-registered']);
    expect((await getNode(kubectl, HOSTNAME))?.metadata.labels?.['metal3.io/uuid']).toBe(BMH_UID);

    await ironic.provision(node.uuid, { target: 'deleted' });
    await ironic.waitForState(node.uuid, 'available');
    await waitFor(async () => ((await getNode(kubectl, HOSTNAME)) === undefined ? true : undefined),
      { what: `Node ${HOSTNAME} to be deleted after undeploy`, timeoutMs: 90_000 });
    expect((await nodeRecords(system.uuid)).at(-1)).toMatchObject({
      kind: 'node-deleted', node: HOSTNAME, reason: 'powered-off-for-deprovisioning',
    });

    await ironic.provision(node.uuid, { target: 'manage' });
    await ironic.waitForState(node.uuid, 'manageable');
    await ironic.request('DELETE', `/v1/nodes/${node.uuid}`);
    ironicNode = undefined;
  }, 600_000);

  afterAll(async () => {
    // A failed run must not leave its Ironic node holding the system's port.
    if (ironicNode !== undefined) {
      await fetch(`${env.ironicUrl}/v1/nodes/${ironicNode}/maintenance`, {
        method: 'PUT', headers: { 'content-type': 'application/json', 'x-openstack-ironic-api-version': '1.95' },
        body: JSON.stringify({ reason: 'test cleanup' }),
      });
      await fetch(`${env.ironicUrl}/v1/nodes/${ironicNode}`, { method: 'DELETE', headers: { 'x-openstack-ironic-api-version': '1.95' } });
    }
  });
});
