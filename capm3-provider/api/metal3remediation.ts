import { z } from 'zod';
import { objectMetaSchema } from '../../operator/api/index.ts';
import type { ResourceType } from '../../operator/runtime/index.ts';
import { rfc3339 } from './common.ts';
import { INFRASTRUCTURE_GROUP, INFRASTRUCTURE_VERSION } from './group-version.ts';

export const Metal3RemediationResource = {
  group: INFRASTRUCTURE_GROUP,
  version: INFRASTRUCTURE_VERSION,
  kind: 'Metal3Remediation',
  plural: 'metal3remediations',
  namespaced: true,
} as const satisfies ResourceType;

export const REBOOT_STRATEGY = 'Reboot';

/** CAPM3's phases, with its exact strings ("Deleting machine" has a space). */
export const REMEDIATION_PHASES = ['Running', 'Waiting', 'Deleting machine', 'Failed'] as const;
export type RemediationPhase = (typeof REMEDIATION_PHASES)[number];

/** CAPM3's default timeout: how long one power cycle may take to bring the Node back healthy. */
export const DEFAULT_REMEDIATION_TIMEOUT_SECONDS = 600;
/**
 * CAPM3 v1beta2 requires at least 100 s; this provider accepts down to 10 s so small labs and
 * CI can prove a retry in reasonable time (every manifest CAPM3 accepts is accepted here).
 */
export const MIN_REMEDIATION_TIMEOUT_SECONDS = 10;

export const remediationStrategySchema = z.object({
  type: z.enum([REBOOT_STRATEGY]).optional().describe('Remediation strategy; only Reboot (a power cycle through the host) exists.'),
  retryLimit: z.int().min(1).default(1).meta({ format: 'int32' })
    .describe('Power cycles tried after the first one before the Machine is given up and replaced.'),
  // The floor is the CRD's and the webhook's (which lets 0, Go's "unset", through); a stored 0
  // (a v1beta1 object converted without a timeout) still reads.
  timeoutSeconds: z.int().default(DEFAULT_REMEDIATION_TIMEOUT_SECONDS)
    .meta({ format: 'int32', minimum: MIN_REMEDIATION_TIMEOUT_SECONDS })
    .describe('Seconds one power cycle has to bring the Node back healthy before the next is tried.'),
});
export type RemediationStrategy = z.infer<typeof remediationStrategySchema>;

export const metal3RemediationSpecSchema = z.object({
  strategy: remediationStrategySchema.optional().describe('How the unhealthy Machine is remediated.'),
});

export const metal3RemediationStatusSchema = z.object({
  phase: z.enum(REMEDIATION_PHASES).optional()
    .describe('Running (powering off, Node removed), Waiting (powered on, waiting for the Node), Deleting machine (given up), Failed.'),
  retryCount: z.int().min(0).optional().meta({ format: 'int32' }).describe('Power cycles retried so far.'),
  lastRemediated: rfc3339().optional().describe('When the current power cycle started.'),
});
export type Metal3RemediationStatus = z.infer<typeof metal3RemediationStatusSchema>;

export const metal3RemediationSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: metal3RemediationSpecSchema.prefault({}),
  status: metal3RemediationStatusSchema.optional(),
});
export type Metal3Remediation = z.infer<typeof metal3RemediationSchema>;

export const Metal3RemediationTemplateResource = {
  group: INFRASTRUCTURE_GROUP,
  version: INFRASTRUCTURE_VERSION,
  kind: 'Metal3RemediationTemplate',
  plural: 'metal3remediationtemplates',
  namespaced: true,
} as const satisfies ResourceType;

/** A MachineHealthCheck's `remediation.templateRef` names this; Cluster API clones one Metal3Remediation per unhealthy Machine. */
export const metal3RemediationTemplateSpecSchema = z.object({
  template: z.object({
    spec: metal3RemediationSpecSchema.prefault({}).describe('The Metal3Remediation spec every clone starts from.'),
  }).describe('What Cluster API clones into each Metal3Remediation.'),
});

/** CAPM3 declares a `status.status` here; nothing writes it. */
export const metal3RemediationTemplateStatusSchema = z.object({
  status: metal3RemediationStatusSchema.optional().describe('Unused; kept for manifests that carry it.'),
});
