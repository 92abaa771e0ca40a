// BMO's GetFirmwareComponents: the components and versions Ironic cached from the BMC.
import type { FirmwareComponentStatus } from '../../api/hostfirmwarecomponents.ts';
import { formatTime } from '../../runtime/conditions.ts';
import type { HostIdentity } from '../provisioner.ts';
import type { ProvisionerContext } from './context.ts';
import { ironicNodeName } from './node-name.ts';

export async function firmwareComponents(context: ProvisionerContext, options: { host: HostIdentity }): Promise<FirmwareComponentStatus[]> {
  const components = await context.client.nodes.listFirmwareComponents(options.host.nodeId || ironicNodeName(options.host));
  return components.map((component) => ({
    component: component.component,
    initialVersion: component.initial_version ?? '',
    ...(component.current_version ? { currentVersion: component.current_version } : {}),
    ...(component.last_version_flashed ? { lastVersionFlashed: component.last_version_flashed } : {}),
    ...(component.updated_at ? { updatedAt: formatTime(new Date(component.updated_at)) } : {}),
  }));
}
