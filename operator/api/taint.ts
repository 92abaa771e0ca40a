import { z } from 'zod';
import { rfc3339 } from './rfc3339.ts';

/** core/v1 Taint, for the deprecated and never implemented spec.taints. */
export const taintSchema = z.object({
  key: z.string().describe('Taint key.'),
  value: z.string().optional().describe('Taint value.'),
  effect: z.string().describe('NoSchedule, PreferNoSchedule or NoExecute.'),
  timeAdded: rfc3339().optional().describe('When a NoExecute taint was added.'),
});

export type Taint = z.infer<typeof taintSchema>;
