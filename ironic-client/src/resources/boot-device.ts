// Boot device: /v1/nodes/{node}/management/boot_device.
import { bootDeviceContract, checkContract, supportedBootDevicesContract } from '../contract.ts';
import type { BootDevice, BootDeviceName, SupportedBootDevices } from '../types.ts';
import type { ResourceContext } from './context.ts';

export interface BootDeviceOptions {
  bootDevice: BootDeviceName;
  /** Keep the device for all later boots, not only the next one. @default false */
  persistent?: boolean;
}

export interface BootDeviceOperations {
  setBootDevice(nodeIdent: string, options: BootDeviceOptions): Promise<void>;
  /** Fields are null when the driver cannot tell. */
  getBootDevice(nodeIdent: string): Promise<BootDevice>;
  getSupportedBootDevices(nodeIdent: string): Promise<SupportedBootDevices['supported_boot_devices']>;
}

export function bootDeviceOperations({ transport }: ResourceContext): BootDeviceOperations {
  return {
    async setBootDevice(nodeIdent, options) {
      await transport.call('put', '/v1/nodes/{node_ident}/management/boot_device', {
        path: { node_ident: nodeIdent },
        body: { boot_device: options.bootDevice, ...(options.persistent !== undefined ? { persistent: options.persistent } : {}) },
      });
    },
    async getBootDevice(nodeIdent) {
      const result = await transport.call('get', '/v1/nodes/{node_ident}/management/boot_device', { path: { node_ident: nodeIdent } });
      return checkContract<BootDevice>(bootDeviceContract, result.data, result.request);
    },
    async getSupportedBootDevices(nodeIdent) {
      const result = await transport.call('get', '/v1/nodes/{node_ident}/management/boot_device/supported', {
        path: { node_ident: nodeIdent },
      });
      return checkContract<SupportedBootDevices>(supportedBootDevicesContract, result.data, result.request).supported_boot_devices;
    },
  };
}
