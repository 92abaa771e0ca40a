// PROVISIONING_LIMIT: how many hosts may boot the ramdisk over the provisioning network at
// once (BMO's HasCapacity). Virtual media needs no DHCP/PXE and is never limited.
import type { CapacityOptions } from '../provisioner.ts';
import type { ProvisionerContext } from './context.ts';
import { transient } from './ironic-errors.ts';
import { ironicNodeName } from './node-name.ts';

const BUSY_STATES = new Set(['cleaning', 'clean wait', 'inspecting', 'inspect wait', 'deploying', 'wait call-back', 'deleting']);

/** Names of nodes that hold a provisioning slot now. */
async function busyNodeNames(context: ProvisionerContext): Promise<Set<string>> {
  let nodes;
  try {
    nodes = await context.client.nodes.listAll({ fields: ['uuid', 'name', 'provision_state', 'boot_interface'] });
  } catch (error) {
    throw transient('unable to get hosts for determining current provisioner capacity', error);
  }
  const busy = new Set<string>();
  for (const node of nodes) {
    if (!BUSY_STATES.has(node.provision_state ?? '')) continue;
    if ((node.boot_interface ?? '').includes('virtual-media')) continue;
    busy.add(node.name ?? node.uuid);
  }
  return busy;
}

export async function hasCapacity(context: ProvisionerContext, options: CapacityOptions = {}): Promise<boolean> {
  if (options.bmc?.supportsIsoPreprovisioningImage) return true;
  const busy = await busyNodeNames(context);
  // A host already holding a slot keeps it.
  if (options.host !== undefined && busy.has(ironicNodeName(options.host))) return true;
  return busy.size < context.config.provisioningLimit;
}
