// Shared by the ironic-client integration tests: nodes over the stack's emulated Redfish BMCs,
// waits on Ironic's states through the client, and the agent simulator's records.
import { setTimeout as sleep } from 'node:timers/promises';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import type { IronicClient, IronicClientOptions, NodeCreate, NodeStates } from '../../../ironic-client/index.ts';
import type { StackEnv } from '../../support/stack-env.ts';

type StackSystem = StackEnv['systems'][number];

/** Options for a client of the stack's Ironic, with its credentials files when it runs http_basic. */
export function stackClientOptions(env: StackEnv, extra: Partial<IronicClientOptions> = {}): IronicClientOptions {
  return {
    endpoint: env.ironicUrl,
    ...(env.ironicAuth ? { auth: { type: 'http_basic', credentialsDir: env.ironicAuth.directory } } : {}),
    ...extra,
  };
}

/** A Redfish node for one emulated system, network-booted over iPXE like the stack's own tests. */
export function redfishNode(env: StackEnv, system: StackSystem, name: string, extra: Partial<NodeCreate> = {}): NodeCreate {
  return {
    name,
    driver: 'redfish',
    boot_interface: 'ipxe',
    driver_info: {
      redfish_address: env.sushyUrl,
      redfish_system_id: `/redfish/v1/Systems/${system.uuid}`,
      ...(env.bmcCredentials
        ? { redfish_username: env.bmcCredentials.username, redfish_password: env.bmcCredentials.password }
        : {}),
    },
    ...extra,
  };
}

export interface WaitOptions {
  timeoutMs?: number;
  /** Accept the state while a target is still set (e.g. `inspect wait`). */
  unsettled?: boolean;
}

/** Polls the node's states until it rests in `state`; fails at once on a *failed state, with last_error. */
export async function waitForProvisionState(
  client: IronicClient,
  nodeId: string,
  state: string,
  options: WaitOptions = {},
): Promise<NodeStates> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await client.nodes.getStates(nodeId);
    if (states.provision_state === state && (options.unsettled || states.target_provision_state === null)) return states;
    if (states.provision_state?.endsWith('failed') && state !== states.provision_state) {
      throw new Error(`node ${nodeId} went to ${states.provision_state} waiting for ${state}: ${states.last_error}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`node ${nodeId} still ${states.provision_state} -> ${states.target_provision_state} after ${timeoutMs} ms, waiting for ${state}`);
    }
    await sleep(500);
  }
}

/** Polls until the node's power state is `target` and no power change is pending. */
export async function waitForPowerState(client: IronicClient, nodeId: string, target: string, timeoutMs = 60_000): Promise<NodeStates> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await client.nodes.getStates(nodeId);
    if (states.power_state === target && states.target_power_state === null) return states;
    if (Date.now() > deadline) {
      throw new Error(`node ${nodeId} still ${states.power_state} -> ${states.target_power_state} after ${timeoutMs} ms, waiting for ${target}`);
    }
    await sleep(300);
  }
}

/** What the agent simulator saw one emulated server go through. */
export async function simulatorRecords(env: StackEnv, systemUuid: string): Promise<SystemRecords> {
  const response = await fetch(`${env.agentSimulatorUrl}/records/${systemUuid}`);
  if (!response.ok) throw new Error(`GET records/${systemUuid} -> ${response.status}`);
  return (await response.json()) as SystemRecords;
}

/** Best-effort cleanup after a failed test: maintenance lets Ironic delete a node in any stable state. */
export async function deleteNodeQuietly(client: IronicClient, nodeId: string): Promise<void> {
  await client.nodes.setMaintenance(nodeId, { reason: 'test cleanup' }).catch(() => undefined);
  await client.nodes.delete(nodeId).catch(() => undefined);
}
