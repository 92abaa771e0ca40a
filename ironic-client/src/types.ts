// Named aliases for the generated schemas, so callers never index `components` themselves.
import type { components } from '../generated/ironic.ts';

type Schemas = components['schemas'];

export type Node = Schemas['Node'];
export type NodeField = Schemas['NodeField'];
export type NodeCreate = Schemas['NodeCreate'];
export type NodeStates = Schemas['NodeStates'];
export type NodeValidation = Schemas['NodeValidation'];
export type InterfaceValidation = Schemas['InterfaceValidation'];
export type JsonPatch = Schemas['JsonPatch'];
export type JsonPatchOperation = Schemas['JsonPatchOperation'];
export type ProvisionState = Schemas['ProvisionState'];
export type ProvisionVerb = Schemas['ProvisionVerb'];
export type ProvisionStateRequest = Schemas['ProvisionStateRequest'];
export type ConfigDrive = Schemas['ConfigDrive'];
export type CleanStep = Schemas['CleanStep'];
export type DeployStep = Schemas['DeployStep'];
export type StepInterface = Schemas['StepInterface'];
export type PowerTarget = Schemas['PowerTarget'];
export type RaidConfig = Schemas['RaidConfig'];
export type LogicalDisk = Schemas['LogicalDisk'];
export type BootDeviceName = Schemas['BootDeviceName'];
export type BootDevice = Schemas['BootDevice'];
export type SupportedBootDevices = Schemas['SupportedBootDevices'];
export type NodeInventory = Schemas['NodeInventory'];
export type Inventory = Schemas['Inventory'];
export type InventoryInterface = Schemas['InventoryInterface'];
export type BiosSetting = Schemas['BiosSetting'];
export type FirmwareComponent = Schemas['FirmwareComponent'];
export type VirtualMediaDeviceType = Schemas['VirtualMediaDeviceType'];
export type VirtualMediaDevice = Schemas['VirtualMediaDevice'];
export type VendorPassthruMethods = Schemas['VendorPassthruMethods'];
export type NodeHistoryEvent = Schemas['NodeHistoryEvent'];
export type Port = Schemas['Port'];
export type PortField = Schemas['PortField'];
export type PortCreate = Schemas['PortCreate'];
export type Driver = Schemas['Driver'];
export type LookupResult = Schemas['LookupResult'];
export type HeartbeatRequest = Schemas['HeartbeatRequest'];
export type InspectionData = Schemas['InspectionData'];
export type VersionInfo = Schemas['VersionInfo'];
export type RootVersions = Schemas['RootVersions'];
export type V1Root = Schemas['V1Root'];
export type ErrorResponse = Schemas['ErrorResponse'];
export type IronicFault = Schemas['IronicFault'];

/** One page of a collection; `next` is set when the page is full. */
export interface Page<T> {
  items: T[];
  /** Marker for the next page, taken from Ironic's `next` link. */
  nextMarker?: string;
}
