import { z } from 'zod';
import { objectMetaSchema } from '../../operator/api/index.ts';
import type { ResourceType } from '../../operator/runtime/index.ts';
import {
  conditionsSchema, customDeploySchema, deprecatedStatusSchema, hostSelectorSchema, initializationSchema, machineAddressSchema,
  machineImageSchema, objectRefSchema, rfc3339, secretReferenceSchema,
} from './common.ts';
import { INFRASTRUCTURE_GROUP, INFRASTRUCTURE_VERSION } from './group-version.ts';

export const Metal3MachineResource = {
  group: INFRASTRUCTURE_GROUP,
  version: INFRASTRUCTURE_VERSION,
  kind: 'Metal3Machine',
  plural: 'metal3machines',
  namespaced: true,
} as const satisfies ResourceType;

export const CLEANING_MODES = ['metadata', 'disabled'] as const;
export type CleaningMode = (typeof CLEANING_MODES)[number];

/** What a Machine's bare-metal server should be: which host, which image, which data. */
export const metal3MachineSpecSchema = z.object({
  providerID: z.string().max(512).optional()
    .describe('metal3://<namespace>/<host>/<metal3machine>, set once the host is provisioned.'),
  image: machineImageSchema.optional().describe('Image written to the host; set on the host once, never re-imaged.'),
  customDeploy: customDeploySchema.optional().describe('Custom deploy method used instead of an image.'),
  userData: secretReferenceSchema.optional()
    .describe('Secret with user data overriding the Machine bootstrap data; must be in this namespace.'),
  hostSelector: hostSelectorSchema.optional().describe('Which BareMetalHosts may be chosen, by their labels.'),
  dataTemplate: objectRefSchema.optional().describe('Metal3DataTemplate rendering metaData and networkData (not served yet).'),
  metaData: secretReferenceSchema.optional().describe('Secret with extra meta data for the config drive; this namespace only.'),
  networkData: secretReferenceSchema.optional().describe('Secret with network data for the config drive; this namespace only.'),
  automatedCleaningMode: z.enum(CLEANING_MODES).optional()
    .describe('Passed to the host: metadata cleans disks around provisioning, disabled keeps them.'),
  failureDomain: z.string().max(256).optional().describe('Copied from the Machine; hosts in this failure domain are preferred.'),
});
export type Metal3MachineSpec = z.infer<typeof metal3MachineSpecSchema>;

export const metal3MachineStatusSchema = z.object({
  conditions: conditionsSchema.optional().describe('Ready, AssociateBareMetalHost, Paused and friends.'),
  lastUpdated: rfc3339().optional().describe('When the status was last written.'),
  addresses: z.array(machineAddressSchema).min(1).max(32).optional()
    .describe('Addresses of the host: NIC IPs as InternalIP, its hostname as Hostname and InternalDNS.'),
  initialization: initializationSchema.optional().describe('Cluster API contract: provisioned once the host runs the image.'),
  userData: secretReferenceSchema.optional().describe('The user data Secret handed to the host.'),
  renderedData: objectRefSchema.optional().describe('The Metal3Data rendered for this machine.'),
  metaData: secretReferenceSchema.optional().describe('The meta data Secret handed to the host.'),
  networkData: secretReferenceSchema.optional().describe('The network data Secret handed to the host.'),
  deprecated: deprecatedStatusSchema().optional().describe('Fields kept for tools still reading the v1beta1 contract.'),
});
export type Metal3MachineStatus = z.infer<typeof metal3MachineStatusSchema>;

export const metal3MachineSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: metal3MachineSpecSchema.prefault({}),
  status: metal3MachineStatusSchema.optional(),
});
export type Metal3Machine = z.infer<typeof metal3MachineSchema>;
