import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { conditionSchema } from './conditions.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { objectMetaSchema } from './object-meta.ts';
import { rfc3339 } from './rfc3339.ts';

export const HostFirmwareComponentsResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'HostFirmwareComponents',
  plural: 'hostfirmwarecomponents',
  namespaced: true,
} as const satisfies ResourceType;

/** BMO's component names: `bios`, `bmc`, or a NIC as `nic:<id>`. */
export const NIC_COMPONENT_PREFIX = 'nic:';

export const firmwareUpdateSchema = z.object({
  component: z.string().describe('The component to flash: bios, bmc or nic:<id>.'),
  url: z.string().describe('Where the firmware image is.'),
});

export const firmwareComponentStatusSchema = z.object({
  component: z.string().describe('The component: bios, bmc or nic:<id>.'),
  initialVersion: z.string().describe('The version when the host was registered.'),
  currentVersion: z.string().optional().describe('The version the BMC reports now.'),
  lastVersionFlashed: z.string().optional().describe('The version the last update installed.'),
  updatedAt: rfc3339().optional().describe('When the component was last updated.'),
});

export const hostFirmwareComponentsSpecSchema = z.object({
  updates: z.array(firmwareUpdateSchema).prefault([]).describe('Firmware to flash when the host is next prepared.'),
});

export const hostFirmwareComponentsStatusSchema = z.object({
  updates: z.array(firmwareUpdateSchema).optional().describe('The updates last applied.'),
  components: z.array(firmwareComponentStatusSchema).optional().describe('The components and their versions as the BMC reports them.'),
  lastUpdated: rfc3339().optional().describe('When the status last changed.'),
  conditions: z.array(conditionSchema).meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }).optional().describe('Valid and ChangeDetected. (one per type, as BMO\'s CRD keys them).'),
});

export const hostFirmwareComponentsSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: hostFirmwareComponentsSpecSchema.prefault({}),
  status: hostFirmwareComponentsStatusSchema.optional(),
});

export type FirmwareUpdate = z.output<typeof firmwareUpdateSchema>;
export type FirmwareComponentStatus = z.output<typeof firmwareComponentStatusSchema>;
export type HostFirmwareComponentsStatus = z.output<typeof hostFirmwareComponentsStatusSchema>;
export type HostFirmwareComponents = z.output<typeof hostFirmwareComponentsSchema>;

const _isKubeObject = (components: HostFirmwareComponents): KubeObject => components;

/** BMO's ValidateHostFirmwareComponents, with its message; undefined when every name is allowed. */
export function firmwareUpdatesProblem(updates: readonly FirmwareUpdate[]): string | undefined {
  const bad = updates.find((update) => update.component !== 'bios' && update.component !== 'bmc' && !update.component.startsWith(NIC_COMPONENT_PREFIX));
  return bad
    ? `component ${bad.component} is invalid, only 'bmc', 'bios', or names starting with '${NIC_COMPONENT_PREFIX}' are allowed as update names`
    : undefined;
}
