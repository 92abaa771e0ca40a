import type { z } from 'zod';
import {
  REMEDIATION_PHASES, metal3RemediationSpecSchema, metal3RemediationStatusSchema, metal3RemediationTemplateSpecSchema, metal3RemediationTemplateStatusSchema,
} from '../metal3remediation.ts';
import { ConversionError, defineConversion } from './define-conversion.ts';
import { formatGoDuration, parseGoDurationSeconds } from './go-duration.ts';
import {
  metal3RemediationSpecV1beta1Schema, metal3RemediationStatusV1beta1Schema, metal3RemediationTemplateSpecV1beta1Schema,
} from './metal3remediation.ts';
import type { Metal3RemediationSpecV1beta1 } from './metal3remediation.ts';

type RemediationSpec = z.output<typeof metal3RemediationSpecSchema>;
type RemediationStatus = z.output<typeof metal3RemediationStatusSchema>;

/** v1beta1's `timeout` (a Go duration) becomes whole `timeoutSeconds`, truncated as CAPM3's ConvertToSeconds does. */
function remediationSpecUp(spec: Metal3RemediationSpecV1beta1, where: string): z.input<typeof metal3RemediationSpecSchema> {
  const strategy = spec.strategy;
  if (strategy === undefined) return {};
  let timeoutSeconds: number | undefined;
  if (strategy.timeout !== undefined) {
    const seconds = parseGoDurationSeconds(strategy.timeout);
    if (seconds === undefined) {
      throw new ConversionError(`${where}.strategy.timeout: ${JSON.stringify(strategy.timeout)} is not a duration (write it as Go does, e.g. 600s or 10m)`);
    }
    timeoutSeconds = Math.trunc(seconds);
  }
  return { strategy: { type: strategy.type, retryLimit: strategy.retryLimit, timeoutSeconds } };
}

function remediationSpecDown(spec: RemediationSpec): Metal3RemediationSpecV1beta1 {
  const strategy = spec.strategy;
  if (strategy === undefined) return {};
  return { strategy: { type: strategy.type, retryLimit: strategy.retryLimit, timeout: formatGoDuration(strategy.timeoutSeconds) } };
}

const isPhase = (phase: string): phase is NonNullable<RemediationStatus['phase']> => (REMEDIATION_PHASES as readonly string[]).includes(phase);

/** The same fields; v1beta2 only knows CAPM3's four phases. */
function remediationStatusUp(status: z.output<typeof metal3RemediationStatusV1beta1Schema>): z.input<typeof metal3RemediationStatusSchema> {
  const { phase, ...rest } = status;
  if (phase !== undefined && phase !== '' && !isPhase(phase)) {
    throw new ConversionError(`status.phase: ${JSON.stringify(phase)} is not one of ${REMEDIATION_PHASES.join(', ')}`);
  }
  return { ...rest, ...(phase ? { phase } : {}) };
}

export const metal3RemediationConversion = defineConversion({
  kind: 'Metal3Remediation',
  keepsConversionData: false,
  v1beta1: { spec: metal3RemediationSpecV1beta1Schema, status: metal3RemediationStatusV1beta1Schema },
  v1beta2: { spec: metal3RemediationSpecSchema, status: metal3RemediationStatusSchema },
  specUp: (spec) => remediationSpecUp(spec, 'spec'),
  statusUp: remediationStatusUp,
  specDown: remediationSpecDown,
  statusDown: (status) => status,
});

export const metal3RemediationTemplateConversion = defineConversion({
  kind: 'Metal3RemediationTemplate',
  keepsConversionData: false,
  v1beta1: { spec: metal3RemediationTemplateSpecV1beta1Schema, status: metal3RemediationTemplateStatusSchema },
  v1beta2: { spec: metal3RemediationTemplateSpecSchema, status: metal3RemediationTemplateStatusSchema },
  specUp: (spec) => ({ template: { spec: remediationSpecUp(spec.template.spec, 'spec.template.spec') } }),
  statusUp: (status) => status,
  specDown: (spec) => ({ template: { spec: remediationSpecDown(spec.template.spec) } }),
  statusDown: (status) => status,
});
