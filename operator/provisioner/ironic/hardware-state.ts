// The cheapest look at the host: its power state as Ironic last saw it.
import type { HardwareState, HostIdentity } from '../provisioner.ts';
import type { ProvisionerContext } from './context.ts';
import { loadHostNode } from './node-lookup.ts';

export async function hardwareState(context: ProvisionerContext, options: { host: HostIdentity }): Promise<HardwareState> {
  const node = await loadHostNode(context, options.host);
  switch (node.power_state) {
    case 'power on':
      return { poweredOn: true };
    case 'power off':
      return { poweredOn: false };
    default:
      context.log.debug('could not determine power state', { powerState: node.power_state });
      return {};
  }
}
