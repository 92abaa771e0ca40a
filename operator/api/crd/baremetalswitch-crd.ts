import { BareMetalSwitchResource, SWITCH_CONDITIONS, bareMetalSwitchSpecSchema, bareMetalSwitchStatusSchema } from '../baremetalswitch.ts';
import type { CrdSource } from './custom-resource-definition.ts';

/** BMO's BareMetalSwitch (served with IRONIC_NETWORKING_ENABLED), with its short name and columns. */
export const bareMetalSwitchCrdSource: CrdSource = {
  group: BareMetalSwitchResource.group,
  version: BareMetalSwitchResource.version,
  kind: BareMetalSwitchResource.kind,
  listKind: 'BareMetalSwitchList',
  plural: BareMetalSwitchResource.plural,
  singular: 'baremetalswitch',
  shortNames: ['bms'],
  scope: 'Namespaced',
  description: 'A network switch that Ironic\'s networking service configures for hosts; the operator writes it into the switch configuration Secret.',
  spec: bareMetalSwitchSpecSchema,
  specDescription: 'How to reach and log in to the switch.',
  status: bareMetalSwitchStatusSchema,
  statusDescription: 'Whether the switch is in the switch configuration Secret.',
  printerColumns: [
    { name: 'Driver', type: 'string', jsonPath: '.spec.driver', description: 'Switch driver' },
    { name: 'Device Type', type: 'string', jsonPath: '.spec.deviceType', description: 'Device type of the driver' },
    { name: 'Address', type: 'string', jsonPath: '.spec.address', description: 'Address of the switch' },
    { name: 'Valid', type: 'string', jsonPath: `.status.conditions[?(@.type=="${SWITCH_CONDITIONS.valid}")].status`, description: 'Whether the switch is in the configuration' },
  ],
};
