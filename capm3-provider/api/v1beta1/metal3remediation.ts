import { z } from 'zod';
import { rfc3339 } from '../common.ts';
import { REBOOT_STRATEGY } from '../metal3remediation.ts';

export const remediationStrategyV1beta1Schema = z.object({
  type: z.enum([REBOOT_STRATEGY]).optional().describe('Remediation strategy.'),
  retryLimit: z.int().optional().describe('Power cycles tried after the first one.'),
  timeout: z.string().optional().describe('A Go duration such as 600s or 10m: how long one power cycle may take.'),
});

export const metal3RemediationSpecV1beta1Schema = z.object({
  strategy: remediationStrategyV1beta1Schema.optional().describe('How the unhealthy Machine is remediated.'),
});
export type Metal3RemediationSpecV1beta1 = z.infer<typeof metal3RemediationSpecV1beta1Schema>;

export const metal3RemediationTemplateSpecV1beta1Schema = z.object({
  template: z.object({ spec: metal3RemediationSpecV1beta1Schema.describe('The Metal3Remediation spec.') }).describe('The template.'),
});
export type Metal3RemediationTemplateSpecV1beta1 = z.infer<typeof metal3RemediationTemplateSpecV1beta1Schema>;

export const metal3RemediationStatusV1beta1Schema = z.object({
  phase: z.string().optional().describe('Running, Waiting, Deleting machine or Failed.'),
  retryCount: z.int().optional().describe('Power cycles retried so far.'),
  lastRemediated: rfc3339().optional().describe('When the current power cycle started.'),
});
