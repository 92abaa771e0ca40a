// `client.nodes`: every node-scoped operation, gathered from one file per resource group.
import type { ResourceContext } from './context.ts';
import { biosOperations } from './bios.ts';
import type { BiosOperations } from './bios.ts';
import { bootDeviceOperations } from './boot-device.ts';
import type { BootDeviceOperations } from './boot-device.ts';
import { firmwareOperations } from './firmware.ts';
import type { FirmwareOperations } from './firmware.ts';
import { historyOperations } from './history.ts';
import type { HistoryOperations } from './history.ts';
import { inventoryOperations } from './inventory.ts';
import type { InventoryOperations } from './inventory.ts';
import { maintenanceOperations } from './maintenance.ts';
import type { MaintenanceOperations } from './maintenance.ts';
import { nodeCrudOperations } from './node-crud.ts';
import type { NodeCrudOperations } from './node-crud.ts';
import { powerOperations } from './power.ts';
import type { PowerOperations } from './power.ts';
import { provisioningOperations } from './provisioning.ts';
import type { ProvisioningOperations } from './provisioning.ts';
import { raidOperations } from './raid.ts';
import type { RaidOperations } from './raid.ts';
import { vendorPassthruOperations } from './vendor-passthru.ts';
import type { VendorPassthruOperations } from './vendor-passthru.ts';
import { virtualMediaOperations } from './virtual-media.ts';
import type { VirtualMediaOperations } from './virtual-media.ts';

export type NodesApi = NodeCrudOperations &
  ProvisioningOperations &
  PowerOperations &
  RaidOperations &
  MaintenanceOperations &
  BootDeviceOperations &
  InventoryOperations &
  BiosOperations &
  FirmwareOperations &
  VirtualMediaOperations &
  VendorPassthruOperations &
  HistoryOperations;

export function createNodesApi(context: ResourceContext): NodesApi {
  return Object.freeze({
    ...nodeCrudOperations(context),
    ...provisioningOperations(context),
    ...powerOperations(context),
    ...raidOperations(context),
    ...maintenanceOperations(context),
    ...bootDeviceOperations(context),
    ...inventoryOperations(context),
    ...biosOperations(context),
    ...firmwareOperations(context),
    ...virtualMediaOperations(context),
    ...vendorPassthruOperations(context),
    ...historyOperations(context),
  });
}
