import type { StackEnv } from './stack-env.ts';

const headers = { 'content-type': 'application/json', 'x-openstack-ironic-api-version': '1.95' };

async function ironic(env: StackEnv, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${env.ironicUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

/**
 * Removes whatever Ironic nodes own these MAC addresses, so a test file starts from
 * clean emulated hardware even if an earlier file was interrupted mid-way. Nodes are
 * put in maintenance first: Ironic then deletes them in any provision state.
 */
export async function releaseMacAddresses(env: StackEnv, macs: string[]): Promise<void> {
  for (const mac of macs) {
    const ports = (await (await ironic(env, 'GET', `/v1/ports?address=${encodeURIComponent(mac)}&fields=node_uuid`)).json()) as {
      ports: { node_uuid: string }[];
    };
    for (const { node_uuid: nodeId } of ports.ports) await deleteNodeForcefully(env, nodeId);
  }
}

/** Frees every emulated server (and the IPMI BMC's) in Ironic: safe only when no other test file runs. */
export async function releaseAllServers(env: StackEnv): Promise<void> {
  await releaseMacAddresses(env, [...env.systems.flatMap((system) => system.macs), env.ipmiBmc.bootMacAddress]);
}

/** Removes every Ironic node whose name starts with `prefix` (e.g. a test namespace's `ns~`). */
export async function releaseNodesNamed(env: StackEnv, prefix: string): Promise<void> {
  const nodes = (await (await ironic(env, 'GET', '/v1/nodes?fields=uuid,name')).json()) as { nodes: { uuid: string; name: string | null }[] };
  for (const node of nodes.nodes) if (node.name?.startsWith(prefix)) await deleteNodeForcefully(env, node.uuid);
}

async function deleteNodeForcefully(env: StackEnv, nodeId: string): Promise<void> {
  await ironic(env, 'PUT', `/v1/nodes/${nodeId}/maintenance`, { reason: 'test cleanup' });
  for (let attempt = 0; attempt < 30; attempt++) {
    const response = await ironic(env, 'DELETE', `/v1/nodes/${nodeId}`);
    if (response.ok || response.status === 404) return;
    // 409: the node is locked by a running task; give it a moment.
    await new Promise((resolveWait) => setTimeout(resolveWait, 1_000));
  }
  throw new Error(`could not delete Ironic node ${nodeId} during test cleanup`);
}
