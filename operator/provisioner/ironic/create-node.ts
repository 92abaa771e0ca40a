// POST /v1/nodes for a host Ironic does not know yet, with everything BMO sets at creation and
// in its first configuration pass, so the new node needs no PATCH afterwards.
import type { Node, NodeCreate } from '../../../ironic-client/index.ts';
import { inspectInterfaceFor } from '../../bmc/index.ts';
import { nodeCapabilities, registrationDeployInterface } from '../../configdrive/index.ts';
import type { RegisterOptions } from '../provisioner.ts';
import type { ProvisionerContext } from './context.ts';
import { writeRefused } from './ironic-errors.ts';
import type { NotDone } from './ironic-errors.ts';
import { ironicNodeName } from './node-name.ts';

/** BMO's enrollNode options; empty interface names leave Ironic's defaults. */
export function nodeCreateBody(
  context: ProvisionerContext,
  options: RegisterOptions,
  driverInfo: Record<string, unknown>,
): NodeCreate {
  const { interfaces } = options.bmc;
  const body: NodeCreate = {
    name: ironicNodeName(options.host),
    driver: options.bmc.driver,
    driver_info: driverInfo,
    inspect_interface: inspectInterfaceFor({ access: options.bmc, inspectionMode: options.inspectionMode }),
    automated_clean: options.automatedCleaningMode !== 'disabled',
    properties: {
      capabilities: nodeCapabilities({ bootMode: options.bootMode }),
      ...(options.architecture ? { cpu_arch: options.architecture } : {}),
    },
  };
  const optional: Partial<Record<keyof NodeCreate, string>> = {
    bios_interface: interfaces.bios,
    boot_interface: interfaces.boot,
    firmware_interface: interfaces.firmware,
    management_interface: interfaces.management,
    power_interface: interfaces.power,
    raid_interface: interfaces.raid,
    vendor_interface: interfaces.vendor,
    // Only the test-only fake-hardware type names one (see operator/bmc/fake-hardware-access.ts).
    deploy_interface: interfaces.deploy
      || registrationDeployInterface({ currentImage: options.currentImage, hasCustomDeploy: options.hasCustomDeploy ?? false }),
  };
  for (const [key, value] of Object.entries(optional)) if (value) Object.assign(body, { [key]: value });
  if (context.client.features.disablePowerOff) body.disable_power_off = options.disablePowerOff;
  if (options.ramdiskNetworkData) body.network_data = options.ramdiskNetworkData;
  return body;
}

export async function createNode(context: ProvisionerContext, body: NodeCreate): Promise<{ kind: 'created'; node: Node } | NotDone> {
  context.log.info('registering host in ironic', { name: body.name, driver: body.driver });
  try {
    const node = await context.client.nodes.create(body);
    context.nodes.remember(node);
    return { kind: 'created', node };
  } catch (error) {
    // A 409 (e.g. the name was taken meanwhile) is retried; the next call then finds that node.
    return writeRefused('failed to register host in ironic', error, context.delays);
  } finally {
    if (body.name) context.nodeNames.createAsked(body.name);
  }
}
