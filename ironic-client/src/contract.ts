// Runtime checks of the response fields the operator branches on. The generated types say what
// Ironic should send; these zod schemas make sure it did, and name the field when it did not.
// Objects are loose: unknown fields pass through untouched.
import { z } from 'zod';
import { IronicContractError } from './errors.ts';
import type { IronicRequestInfo } from './errors.ts';
import type {
  BiosSetting,
  BootDevice,
  Driver,
  FirmwareComponent,
  InterfaceValidation,
  LookupResult,
  Node,
  NodeHistoryEvent,
  NodeStates,
  Port,
  VersionInfo,
} from './types.ts';

const openObject = z.record(z.string(), z.unknown());
const nullableString = z.string().nullable();

/** Node fields the operator relies on, each checked when present in a response. */
export const nodeFieldContracts = {
  uuid: z.guid(),
  name: nullableString,
  driver: z.string(),
  driver_info: openObject,
  properties: openObject,
  instance_info: openObject,
  instance_uuid: nullableString,
  provision_state: nullableString,
  target_provision_state: nullableString,
  power_state: nullableString,
  target_power_state: nullableString,
  last_error: nullableString,
  maintenance: z.boolean(),
  maintenance_reason: nullableString,
  fault: nullableString,
  reservation: nullableString,
  automated_clean: z.boolean().nullable(),
  boot_interface: nullableString,
  deploy_interface: nullableString,
  inspect_interface: nullableString,
  raid_interface: nullableString,
  boot_mode: nullableString,
  secure_boot: z.boolean().nullable(),
  disable_power_off: z.boolean().nullable().optional(),
  health: nullableString.optional(),
};
type ContractedNodeField = keyof typeof nodeFieldContracts;

// Compile-time guard: the zod view must agree with the generated Node type.
z.object(nodeFieldContracts) satisfies z.ZodType<Pick<Node, ContractedNodeField>>;

const nodeContractCache = new Map<string, z.ZodType>();

/**
 * Schema for one node. With `fields`, only those contracted fields are required (Ironic returns
 * exactly the requested ones); without, every contracted field a full node carries is required.
 */
export function nodeContract(fields?: readonly string[]): z.ZodType {
  const key = fields ? fields.join(',') : '*';
  let schema = nodeContractCache.get(key);
  if (schema === undefined) {
    const shape = fields
      ? Object.fromEntries(
          Object.entries(nodeFieldContracts).filter(([name]) => fields.includes(name)),
        )
      : nodeFieldContracts;
    schema = z.looseObject(shape);
    nodeContractCache.set(key, schema);
  }
  return schema;
}

/** Fields of a node list item when neither `fields` nor `detail` is given (_DEFAULT_RETURN_FIELDS). */
export const DEFAULT_NODE_LIST_FIELDS = [
  'uuid',
  'name',
  'instance_uuid',
  'power_state',
  'provision_state',
  'maintenance',
] as const satisfies readonly ContractedNodeField[];

export function nodeCollectionContract(fields?: readonly string[]): z.ZodType {
  return z.looseObject({ nodes: z.array(nodeContract(fields)), next: z.string().optional() });
}

export const nodeStatesContract = z.looseObject({
  provision_state: nullableString,
  target_provision_state: nullableString,
  power_state: nullableString,
  target_power_state: nullableString,
  last_error: nullableString,
});
nodeStatesContract satisfies z.ZodType<Pick<NodeStates, 'provision_state' | 'target_provision_state' | 'power_state' | 'target_power_state' | 'last_error'>>;

export const portFieldContracts = {
  uuid: z.guid(),
  address: z.string(),
  node_uuid: z.guid(),
  pxe_enabled: z.boolean(),
};
z.object(portFieldContracts) satisfies z.ZodType<Pick<Port, keyof typeof portFieldContracts>>;

/** Ports carry only uuid and address by default (port.py _DEFAULT_RETURN_FIELDS). */
export const DEFAULT_PORT_LIST_FIELDS = ['uuid', 'address'] as const;

export function portContract(fields?: readonly string[]): z.ZodType {
  if (!fields) return z.looseObject(portFieldContracts);
  return z.looseObject(Object.fromEntries(Object.entries(portFieldContracts).filter(([name]) => fields.includes(name))));
}

export function portCollectionContract(fields?: readonly string[]): z.ZodType {
  return z.looseObject({ ports: z.array(portContract(fields)), next: z.string().optional() });
}

const versionInfoContract = z.looseObject({ min_version: z.string(), version: z.string() });
versionInfoContract satisfies z.ZodType<Pick<VersionInfo, 'min_version' | 'version'>>;

export const v1RootContract = z.looseObject({ version: versionInfoContract.optional() });
export const rootVersionsContract = z.looseObject({ default_version: versionInfoContract });

export const bootDeviceContract = z.looseObject({ boot_device: nullableString, persistent: z.boolean().nullable() });
bootDeviceContract satisfies z.ZodType<BootDevice>;

export const supportedBootDevicesContract = z.looseObject({ supported_boot_devices: z.array(z.string()) });

const interfaceValidationContract = z.looseObject({ result: z.boolean().nullable(), reason: nullableString.optional() });
interfaceValidationContract satisfies z.ZodType<InterfaceValidation>;
export const nodeValidationContract = z.record(z.string(), interfaceValidationContract);

export const inventoryContract = z.looseObject({
  inventory: z.looseObject({
    interfaces: z.array(z.looseObject({ mac_address: z.string() })).optional(),
    cpu: z.looseObject({ architecture: z.string().optional() }).optional(),
  }),
  plugin_data: openObject,
});

const biosSettingContract = z.looseObject({ name: z.string(), value: nullableString });
biosSettingContract satisfies z.ZodType<Pick<BiosSetting, 'name' | 'value'>>;
export const biosCollectionContract = z.looseObject({ bios: z.array(biosSettingContract) });

const firmwareContract = z.looseObject({
  component: z.string(),
  initial_version: nullableString,
  current_version: nullableString,
  last_version_flashed: nullableString,
});
firmwareContract satisfies z.ZodType<Pick<FirmwareComponent, 'component' | 'initial_version' | 'current_version' | 'last_version_flashed'>>;
export const firmwareCollectionContract = z.looseObject({ firmware: z.array(firmwareContract) });

export const virtualMediaContract = z.array(
  z.looseObject({ media_types: z.array(z.string()).optional(), inserted: z.boolean().nullable().optional(), image: nullableString.optional() }),
);

const driverContract = z.looseObject({ name: z.string(), hosts: z.array(z.string()) });
driverContract satisfies z.ZodType<Pick<Driver, 'name' | 'hosts'>>;
export const driverCollectionContract = z.looseObject({ drivers: z.array(driverContract) });

const historyEventContract = z.looseObject({ uuid: z.guid(), created_at: z.string(), severity: z.string(), event: z.string() });
historyEventContract satisfies z.ZodType<Pick<NodeHistoryEvent, 'uuid' | 'created_at' | 'severity' | 'event'>>;
export const historyCollectionContract = z.looseObject({ history: z.array(historyEventContract), next: z.string().optional() });

export const lookupResultContract = z.looseObject({
  node: z.looseObject({ uuid: z.guid(), properties: openObject, instance_info: openObject, driver_internal_info: openObject }),
  config: z.looseObject({ agent_token: nullableString.optional() }),
});
lookupResultContract satisfies z.ZodType<Pick<LookupResult, 'node'>>;

function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text === '' ? '(body)' : text;
}

/** Returns the body unchanged, typed as the generated type, or throws naming the bad field. */
export function checkContract<T>(schema: z.ZodType, body: unknown, request: IronicRequestInfo): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new IronicContractError(formatPath(issue?.path ?? []), issue?.message ?? 'invalid', request);
  }
  return body as T;
}
