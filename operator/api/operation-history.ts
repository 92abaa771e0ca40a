import { z } from 'zod';
import { rfc3339 } from './rfc3339.ts';

/** Start and end of one operation; Go writes null for a time not yet reached. */
export const operationMetricSchema = z.object({
  start: rfc3339().nullable().optional().describe('When the operation started.'),
  end: rfc3339().nullable().optional().describe('When the operation finished.'),
});

export const operationHistorySchema = z.object({
  register: operationMetricSchema.optional().describe('Last registration.'),
  inspect: operationMetricSchema.optional().describe('Last inspection.'),
  provision: operationMetricSchema.optional().describe('Last provisioning.'),
  deprovision: operationMetricSchema.optional().describe('Last deprovisioning.'),
});

export type OperationMetric = z.infer<typeof operationMetricSchema>;
export type OperationHistory = z.infer<typeof operationHistorySchema>;
