import { FirmwareSchemaResource, firmwareSchemaSpecSchema } from '../firmwareschema.ts';
import { HostFirmwareComponentsResource, hostFirmwareComponentsSpecSchema, hostFirmwareComponentsStatusSchema } from '../hostfirmwarecomponents.ts';
import { HostFirmwareSettingsResource, hostFirmwareSettingsSpecSchema, hostFirmwareSettingsStatusSchema } from '../hostfirmwaresettings.ts';
import { HostUpdatePolicyResource, hostUpdatePolicySpecSchema, hostUpdatePolicyStatusSchema } from '../hostupdatepolicy.ts';
import type { CrdSource } from './custom-resource-definition.ts';
import type { PrinterColumn } from './printer-column.ts';

const AGE: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since creation' };

const condition = (type: string, description: string): PrinterColumn => ({
  name: type,
  type: 'string',
  jsonPath: `.status.conditions[?(@.type=="${type}")].status`,
  description,
});

/** BMO's HostFirmwareSettings (`hfs`), with columns BMO lacks: is the spec valid, is a change pending. */
export const hostFirmwareSettingsCrdSource: CrdSource = {
  group: HostFirmwareSettingsResource.group,
  version: HostFirmwareSettingsResource.version,
  kind: HostFirmwareSettingsResource.kind,
  listKind: 'HostFirmwareSettingsList',
  plural: HostFirmwareSettingsResource.plural,
  singular: 'hostfirmwaresettings',
  shortNames: ['hfs'],
  scope: 'Namespaced',
  description: 'BIOS settings of the BareMetalHost of the same name: wanted (spec) and current (status).',
  spec: hostFirmwareSettingsSpecSchema,
  specDescription: 'The BIOS settings to apply when the host is next prepared.',
  status: hostFirmwareSettingsStatusSchema,
  statusDescription: 'The settings the BMC reports and how the spec compares with them.',
  printerColumns: [
    condition('Valid', 'Whether every spec setting is allowed by the schema'),
    { ...condition('ChangeDetected', 'Whether the spec differs from the current settings'), name: 'Change' },
    { name: 'Schema', type: 'string', jsonPath: '.status.schema.name', description: 'The FirmwareSchema in use' },
    { name: 'Updated', type: 'date', jsonPath: '.status.lastUpdated', description: 'When the status last changed' },
    AGE,
  ],
};

/** BMO's FirmwareSchema: one per BIOS attribute registry, shared by the hosts that have it. */
export const firmwareSchemaCrdSource: CrdSource = {
  group: FirmwareSchemaResource.group,
  version: FirmwareSchemaResource.version,
  kind: FirmwareSchemaResource.kind,
  listKind: 'FirmwareSchemaList',
  plural: FirmwareSchemaResource.plural,
  singular: 'firmwareschema',
  scope: 'Namespaced',
  description: 'The BIOS settings a kind of hardware has, their types and limits.',
  spec: firmwareSchemaSpecSchema,
  specDescription: 'The hardware and its setting schemas.',
  printerColumns: [
    { name: 'Vendor', type: 'string', jsonPath: '.spec.hardwareVendor', description: 'Hardware vendor' },
    { name: 'Model', type: 'string', jsonPath: '.spec.hardwareModel', description: 'Hardware model' },
    AGE,
  ],
};

/** BMO's HostFirmwareComponents (`hfc`): firmware versions per component and the updates to flash. */
export const hostFirmwareComponentsCrdSource: CrdSource = {
  group: HostFirmwareComponentsResource.group,
  version: HostFirmwareComponentsResource.version,
  kind: HostFirmwareComponentsResource.kind,
  listKind: 'HostFirmwareComponentsList',
  plural: HostFirmwareComponentsResource.plural,
  singular: 'hostfirmwarecomponents',
  shortNames: ['hfc'],
  scope: 'Namespaced',
  description: 'Firmware components of the BareMetalHost of the same name: their versions and the updates to flash.',
  spec: hostFirmwareComponentsSpecSchema,
  specDescription: 'The firmware updates to apply when the host is next prepared.',
  status: hostFirmwareComponentsStatusSchema,
  statusDescription: 'The components the BMC reports and the updates last applied.',
  printerColumns: [
    condition('Valid', 'Whether every update names an allowed component'),
    { ...condition('ChangeDetected', 'Whether updates wait to be applied'), name: 'Change' },
    { name: 'BIOS', type: 'string', jsonPath: '.status.components[?(@.component=="bios")].currentVersion', description: 'Current BIOS version' },
    { name: 'BMC', type: 'string', jsonPath: '.status.components[?(@.component=="bmc")].currentVersion', description: 'Current BMC version' },
    { name: 'Updated', type: 'date', jsonPath: '.status.lastUpdated', description: 'When the status last changed' },
    AGE,
  ],
};

/** BMO's HostUpdatePolicy: named after its host, it opts the host into servicing; an empty status and no status subresource, as BMO's CRD. */
export const hostUpdatePolicyCrdSource: CrdSource = {
  group: HostUpdatePolicyResource.group,
  version: HostUpdatePolicyResource.version,
  kind: HostUpdatePolicyResource.kind,
  listKind: 'HostUpdatePolicyList',
  plural: HostUpdatePolicyResource.plural,
  singular: 'hostupdatepolicy',
  scope: 'Namespaced',
  description: 'When firmware changes reach the BareMetalHost of the same name: onReboot lets a provisioned host take them through servicing when it next powers on.',
  spec: hostUpdatePolicySpecSchema,
  specDescription: 'The policy for firmware settings and for firmware updates.',
  status: hostUpdatePolicyStatusSchema,
  statusDescription: 'Empty: nothing is observed about a policy.',
  statusSubresource: false,
  printerColumns: [
    { name: 'Settings', type: 'string', jsonPath: '.spec.firmwareSettings', description: 'When HostFirmwareSettings changes are applied' },
    { name: 'Updates', type: 'string', jsonPath: '.spec.firmwareUpdates', description: 'When HostFirmwareComponents updates are applied' },
    AGE,
  ],
};
