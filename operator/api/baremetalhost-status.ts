import { z } from 'zod';
import { conditionsSchema } from './conditions.ts';
import { crdRequired, parseOnlyDefault } from './crd/markers.ts';
import { credentialsStatusSchema } from './credentials-status.ts';
import { errorTypeSchema } from './error-type.ts';
import { asGoStructFields } from './go-json.ts';
import { hardwareDetailsSchema } from './hardware-details.ts';
import { imageSchema } from './image.ts';
import { operationHistorySchema } from './operation-history.ts';
import { operationalStatusSchema } from './operational-status.ts';
import { provisionStatusSchema } from './provision-status.ts';
import { rfc3339 } from './rfc3339.ts';

/**
 * Observed state of a BareMetalHost. The fields BMO always writes are required by the CRD;
 * zod reads a missing one as Go's zero value so partial statuses (old YAML, the status
 * annotation) still parse.
 */
export const bareMetalHostStatusSchema = z.object({
  operationalStatus: crdRequired(parseOnlyDefault(operationalStatusSchema.default('')))
    .describe('Overall health: OK, discovered, error, delayed, detached or servicing.'),
  errorType: errorTypeSchema.optional().describe('Which phase failed while operationalStatus is error.'),
  lastUpdated: rfc3339().optional().describe('When the status was last written.'),
  hardwareProfile: z.string().optional().describe('Deprecated name of the matched hardware profile.'),
  hardware: hardwareDetailsSchema.optional().describe('Hardware found by inspection; deprecated in favour of HardwareData.'),
  provisioning: crdRequired(parseOnlyDefault(provisionStatusSchema.prefault({}))).describe('Provisioner bookkeeping.'),
  goodCredentials: credentialsStatusSchema.optional().describe('Last credentials known to work.'),
  triedCredentials: credentialsStatusSchema.optional().describe('Last credentials sent to the provisioner.'),
  errorMessage: crdRequired(parseOnlyDefault(z.string().default(''))).describe('Last error reported by the provisioner.'),
  poweredOn: crdRequired(parseOnlyDefault(z.boolean().default(false))).describe('Last observed power state.'),
  operationHistory: operationHistorySchema.optional().describe('Timing of the last operation of each kind.'),
  errorCount: crdRequired(z.int().default(0)).describe('Failures since the last success; drives the retry backoff.'),
  provisioningFailCount: crdRequired(z.int().default(0))
    .describe('Consecutive provisioning failures for the current image; cleared on success or a new image.'),
  lastAttemptedImage: imageSchema.optional().describe('Image of the last provisioning attempt, to notice a changed image.'),
  conditions: conditionsSchema.optional()
    .describe('Manageable, AvailableForProvisioning, Provisioned, Ready, Progressing and Healthy conditions.'),
});

export type BareMetalHostStatusInput = z.input<typeof bareMetalHostStatusSchema>;
export type BareMetalHostStatus = z.output<typeof bareMetalHostStatusSchema>;

/**
 * The `baremetalhost.metal3.io/status` annotation's JSON, as BMO's Go decoder reads it into the
 * status: `null` is an empty status, a key matches its field in any case, and an empty errorType
 * (Go's zero value, which BMO never writes) is none.
 */
export function savedStatusFields(raw: unknown): unknown {
  const fields = asGoStructFields(raw, Object.keys(bareMetalHostStatusSchema.shape));
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields) || (fields as { errorType?: unknown }).errorType !== '') return fields;
  const { errorType: _empty, ...rest } = fields as Record<string, unknown>;
  return rest;
}
