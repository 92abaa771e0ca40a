import { z } from 'zod';
import { CLEANING_MODES } from '../metal3machine.ts';
import {
  customDeploySchema, hostSelectorSchema, imageV1beta1Schema, legacyStatusFields, machineAddressSchema, objectReferenceSchema,
  secretReferenceSchema,
} from './common.ts';

export const metal3MachineSpecV1beta1Schema = z.object({
  providerID: z.string().optional().describe('metal3://<namespace>/<host>/<metal3machine>.'),
  image: imageV1beta1Schema.optional().describe('Image written to the host.'),
  customDeploy: customDeploySchema.optional().describe('Custom deploy method used instead of an image.'),
  userData: secretReferenceSchema.optional().describe('Secret with user data.'),
  hostSelector: hostSelectorSchema.optional().describe('Which BareMetalHosts may be chosen.'),
  dataTemplate: objectReferenceSchema.optional().describe('Metal3DataTemplate rendering metaData and networkData.'),
  metaData: secretReferenceSchema.optional().describe('Secret with extra meta data.'),
  networkData: secretReferenceSchema.optional().describe('Secret with network data.'),
  automatedCleaningMode: z.enum(CLEANING_MODES).optional().describe('metadata or disabled.'),
  failureDomain: z.string().optional().describe('Copied from the Machine.'),
});
export type Metal3MachineSpecV1beta1 = z.infer<typeof metal3MachineSpecV1beta1Schema>;

export const metal3MachineStatusV1beta1Schema = z.object({
  ...legacyStatusFields,
  addresses: z.array(machineAddressSchema).optional().describe('Addresses of the host.'),
  phase: z.string().optional().describe('Deprecated; never written.'),
  userData: secretReferenceSchema.optional().describe('The user data Secret handed to the host.'),
  renderedData: objectReferenceSchema.optional().describe('The Metal3Data rendered for this machine.'),
  metaData: secretReferenceSchema.optional().describe('The meta data Secret handed to the host.'),
  networkData: secretReferenceSchema.optional().describe('The network data Secret handed to the host.'),
});
export type Metal3MachineStatusV1beta1 = z.infer<typeof metal3MachineStatusV1beta1Schema>;

export const metal3MachineTemplateSpecV1beta1Schema = z.object({
  template: z.object({ spec: metal3MachineSpecV1beta1Schema.describe('The Metal3Machine spec.') }).describe('The template.'),
  nodeReuse: z.boolean().default(false).describe('Keep a released host for the next Machine of the same owner.'),
});
export type Metal3MachineTemplateSpecV1beta1 = z.infer<typeof metal3MachineTemplateSpecV1beta1Schema>;
