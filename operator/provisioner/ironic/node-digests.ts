// One node list for every host at rest: what changed in Ironic since the last look, without a
// request per host. Only the fields a host at rest mirrors are asked for, so a page stays small.
import type { IronicClient, Node, NodeField } from '../../../ironic-client/index.ts';
import type { ProvisionerContext } from './context.ts';

const WATCHED_FIELDS: readonly NodeField[] = [
  'uuid', 'power_state', 'target_power_state', 'provision_state', 'target_provision_state', 'maintenance', 'fault', 'last_error',
];

/**
 * Ironic's busy states, each named by the operation it belongs to: its "wait" half (the ramdisk
 * working) is the same operation. While one runs, its power actions and steps are its own
 * business, so they change no digest; the operation ending does.
 */
const OPERATION_OF_STATE: Readonly<Record<string, string>> = {
  cleaning: 'cleaning', 'clean wait': 'cleaning',
  deploying: 'deploying', 'wait call-back': 'deploying',
  inspecting: 'inspecting', 'inspect wait': 'inspecting',
  servicing: 'servicing', 'service wait': 'servicing',
  rescuing: 'rescuing', 'rescue wait': 'rescuing',
  // Undeploy's deleting runs straight into its cleaning, towards the same target: the host has
  // nothing to do in between, and waking it there only costs a node read.
  deleting: 'cleaning', verifying: 'verifying', adopting: 'adopting', unrescuing: 'unrescuing',
};

/** The fields a digest covers: `health` exists from API 1.109 on; asking for it below that would be refused. */
export function watchedFields(client: Pick<IronicClient, 'features'>): readonly NodeField[] {
  return client.features.nodeHealth ? [...WATCHED_FIELDS, 'health' as const] : WATCHED_FIELDS;
}

export async function nodeDigests(context: ProvisionerContext): Promise<ReadonlyMap<string, string>> {
  const fields = watchedFields(context.client);
  const startedAtMs = context.config.clock.now();
  // Names too, not part of a digest: they answer new hosts' look-ups (node-name-snapshot.ts).
  const nodes = await context.client.nodes.listAll({ fields: [...fields, 'name'] });
  const digests = new Map<string, string>();
  const names: string[] = [];
  for (const node of nodes) {
    if (node.name) names.push(node.name);
    if (!node.uuid) continue;
    const digest = digestOf(node, fields);
    digests.set(node.uuid, digest);
    context.nodes.listed(node, startedAtMs);
    // The host this change wakes reads it, not the copy its own poll cached a moment before.
    const cached = context.nodes.get(node.uuid);
    if (cached !== undefined && digestOf(cached, fields) !== digest) context.nodes.forget(cached);
  }
  context.nodeNames.record(names, startedAtMs);
  return digests;
}

/**
 * Where a provision-state request takes a node first: the state the operation runs in, and its
 * target. Only requests that start an operation from a state at rest are listed; for the others
 * the node's next look is not foretold.
 */
const RUNNING_AFTER_REQUEST: Readonly<Record<string, { from?: string; provision_state: string; target_provision_state: string }>> = {
  manage: { from: 'enroll', provision_state: 'verifying', target_provision_state: 'manageable' },
  inspect: { provision_state: 'inspecting', target_provision_state: 'manageable' },
  provide: { provision_state: 'cleaning', target_provision_state: 'available' },
  clean: { provision_state: 'cleaning', target_provision_state: 'manageable' },
  deploy: { from: 'available', provision_state: 'deploying', target_provision_state: 'active' },
  undeploy: { from: 'active', provision_state: 'deleting', target_provision_state: 'available' },
  adopt: { provision_state: 'adopting', target_provision_state: 'active' },
};

/**
 * The node as the list will show it while the operation `target` starts runs, when that is known:
 * a node at rest, with no fault and not in maintenance (taking it off changes the node too), the
 * request accepted.
 */
export function runningAfterRequest(node: Node, target: string): Node | undefined {
  const running = RUNNING_AFTER_REQUEST[target];
  if (running === undefined || node.target_provision_state || node.fault || node.maintenance) return undefined;
  if (running.from !== undefined && node.provision_state !== running.from) return undefined;
  return { ...node, provision_state: running.provision_state, target_provision_state: running.target_provision_state };
}

/** What a host at rest mirrors of the node, as one string: equal digests, nothing to wake for. */
export function digestOf(node: Partial<Node>, fields: readonly NodeField[]): string {
  const watched: Record<string, unknown> = {};
  for (const field of fields) if (field !== 'uuid') watched[field] = node[field] ?? null;
  const operation = OPERATION_OF_STATE[String(watched.provision_state)];
  if (operation !== undefined) {
    watched.provision_state = operation;
    delete watched.power_state;
    delete watched.target_power_state;
  }
  return JSON.stringify(watched);
}
