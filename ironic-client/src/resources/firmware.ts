// Firmware components cached by Ironic: GET /v1/nodes/{node}/firmware. Updates go through steps.
import { checkContract, firmwareCollectionContract } from '../contract.ts';
import type { FirmwareComponent } from '../types.ts';
import type { ResourceContext } from './context.ts';

export interface FirmwareOperations {
  /** Components such as bios, bmc and nic:<id>; empty under fake-hardware. */
  listFirmwareComponents(nodeIdent: string): Promise<FirmwareComponent[]>;
}

export function firmwareOperations({ transport }: ResourceContext): FirmwareOperations {
  return {
    async listFirmwareComponents(nodeIdent) {
      const result = await transport.call('get', '/v1/nodes/{node_ident}/firmware', { path: { node_ident: nodeIdent } });
      return checkContract<{ firmware: FirmwareComponent[] }>(firmwareCollectionContract, result.data, result.request).firmware;
    },
  };
}
