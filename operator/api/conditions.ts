import { z } from 'zod';
import { rfc3339 } from './rfc3339.ts';

export const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const;
export type ConditionStatus = (typeof CONDITION_STATUSES)[number];

/** metav1.Condition with the limits the API server enforces for it. */
export const conditionSchema = z.object({
  type: z
    .string()
    .max(316)
    .regex(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/)
    .describe('Condition type in CamelCase, or a domain-prefixed name.'),
  status: z.enum(CONDITION_STATUSES).describe('Whether the condition holds: True, False or Unknown.'),
  observedGeneration: z
    .int()
    .min(0)
    .optional()
    .meta({ format: 'int64' })
    .describe('The metadata.generation the condition was computed from.'),
  lastTransitionTime: rfc3339().describe('When the status last changed.'),
  reason: z
    .string()
    .min(1)
    .max(1024)
    .regex(/^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/)
    .describe('Machine-readable CamelCase reason for the last transition.'),
  message: z.string().max(32768).describe('Human-readable details of the last transition; may be empty.'),
});

export type Condition = z.infer<typeof conditionSchema>;

/** A list keyed by `type`, so server-side apply tracks ownership per condition. */
export const conditionsSchema = z
  .array(conditionSchema)
  .max(32)
  .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
