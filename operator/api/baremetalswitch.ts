import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { conditionSchema } from './conditions.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { objectMetaSchema } from './object-meta.ts';
import { secretReferenceSchema } from './secret-reference.ts';

export const BareMetalSwitchResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'BareMetalSwitch',
  plural: 'baremetalswitches',
  namespaced: true,
} as const satisfies ResourceType;

/** BMO's one condition on a switch, and its reasons (ours adds the output Secrets' problems). */
export const SWITCH_CONDITIONS = { valid: 'Valid' } as const;
export const SWITCH_REASONS = {
  reconciled: 'Reconciled',
  credentialError: 'CredentialError',
  invalidSpec: 'InvalidSpec',
  configSecretError: 'ConfigSecretError',
} as const;

/** The only switch driver BMO's CRD accepts. */
export const GENERIC_SWITCH_DRIVER = 'generic-switch';

export const bareMetalSwitchSpecSchema = z.object({
  address: z.string().describe('Network address of the switch (IP address or hostname).'),
  macAddress: z
    .string()
    .regex(/^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$/)
    .describe('MAC address of the switch management interface, matched against the LLDP data hosts report.'),
  driver: z.enum([GENERIC_SWITCH_DRIVER]).default(GENERIC_SWITCH_DRIVER).describe('Switch driver; only generic-switch.'),
  deviceType: z.string().describe('networking-generic-switch device type, e.g. netmiko_cisco_ios, netmiko_dell_os10, netmiko_arista_eos.'),
  credentials: secretReferenceSchema
    .optional()
    .describe('Secret with the switch login: "username" and "password" or "ssh-privatekey", and optionally "admin-password" for privilege escalation.'),
  port: z.int().min(1).max(65535).meta({ format: 'int32' }).optional().describe('Management port (SSH 22, HTTPS 443); the driver\'s default for the device type when unset.'),
  disableCertificateVerification: z
    .boolean()
    .optional()
    .describe('Skip TLS certificate verification over HTTPS (self-signed certificates); insecure.'),
});
export type BareMetalSwitchSpec = z.output<typeof bareMetalSwitchSpecSchema>;

export const bareMetalSwitchStatusSchema = z.object({
  conditions: z
    .array(conditionSchema)
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
    .optional()
    .describe('Valid: whether the switch is in the switch configuration Secret.'),
});

export const bareMetalSwitchSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: bareMetalSwitchSpecSchema,
  status: bareMetalSwitchStatusSchema.optional(),
});
export type BareMetalSwitch = z.output<typeof bareMetalSwitchSchema>;

const _isKubeObject = (bareMetalSwitch: BareMetalSwitch): KubeObject => bareMetalSwitch;
