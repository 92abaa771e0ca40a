// What the floor asks Ironic for: the node the operator would create for the same host (its
// driver, interfaces, driver_info, capabilities), and the deploy it would request.
import type { StackEnv } from '../../../hack/stack/state.ts';
import type { BenchHost } from '../bench-hosts.ts';
import type { BenchMode } from '../report/types.ts';

export function floorNodeBody(options: { mode: BenchMode; env: StackEnv; host: BenchHost; name: string }): Record<string, unknown> {
  const { env, host } = options;
  const deployImages = { deploy_kernel: `${env.artifactsUrl}/ipa.kernel`, deploy_ramdisk: `${env.artifactsUrl}/ipa.initramfs` };
  const common = {
    name: options.name,
    inspect_interface: 'agent',
    automated_clean: true,
    disable_power_off: false,
    properties: { capabilities: 'boot_mode:uefi' },
  };
  if (options.mode === 'fake-hardware') {
    return {
      ...common,
      driver: 'fake-hardware',
      boot_interface: 'fake',
      deploy_interface: 'fake',
      management_interface: 'fake',
      power_interface: 'fake',
      driver_info: deployImages,
    };
  }
  const credentials = env.bmcCredentials ? { redfish_username: env.bmcCredentials.username, redfish_password: env.bmcCredentials.password } : {};
  return {
    ...common,
    driver: 'redfish',
    boot_interface: 'ipxe',
    firmware_interface: 'redfish',
    raid_interface: 'redfish',
    driver_info: { redfish_address: env.sushyUrl, redfish_system_id: host.redfishSystemId, ...credentials, ...deployImages },
  };
}

/** instance_info and instance_uuid as the operator PATCHes them for a raw image with a checksum URL. */
export function floorDeployPatch(options: { env: StackEnv; instanceUuid: string }): Array<Record<string, unknown>> {
  const image = options.env.images[0];
  if (!image) throw new Error('the stack serves no test image');
  const add = (path: string, value: unknown) => ({ op: 'add', path, value });
  return [
    add('/instance_info/image_source', image.url),
    add('/instance_info/image_os_hash_algo', 'sha256'),
    add('/instance_info/image_os_hash_value', `${image.url}.sha256sum`),
    add('/instance_info/image_disk_format', 'raw'),
    add('/instance_info/capabilities', { boot_mode: 'uefi' }),
    add('/instance_uuid', options.instanceUuid),
  ];
}

export function floorConfigDrive(name: string): Record<string, unknown> {
  return {
    meta_data: { uuid: name, 'metal3-namespace': 'bench', 'metal3-name': name, 'local-hostname': name, 'local_hostname': name, name },
    user_data: `#cloud-config\nhostname: ${name}\n`,
  };
}
