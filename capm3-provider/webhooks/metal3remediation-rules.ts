import { z } from 'zod';
import { objectMetaSchema } from '../../operator/api/index.ts';
import type { FieldError } from '../../operator/runtime/index.ts';
import {
  DEFAULT_REMEDIATION_TIMEOUT_SECONDS, MIN_REMEDIATION_TIMEOUT_SECONDS, REBOOT_STRATEGY, metal3RemediationSchema, metal3RemediationTemplateSpecSchema,
} from '../api/index.ts';
import type { Metal3Remediation, RemediationStrategy } from '../api/index.ts';
import { defaultsAt } from './defaults-patch.ts';
import type { DefaultingRules, ValidatingRules } from './review.ts';

/** CAPM3's strategy rules, with this provider's lower timeout floor (MIN_REMEDIATION_TIMEOUT_SECONDS). */
function strategyErrors(strategy: RemediationStrategy | undefined, base: string): FieldError[] {
  if (strategy === undefined) return [];
  const errors: FieldError[] = [];
  if (strategy.timeoutSeconds !== 0 && strategy.timeoutSeconds < MIN_REMEDIATION_TIMEOUT_SECONDS) {
    errors.push({ type: 'Invalid', field: `${base}.timeoutSeconds`, value: strategy.timeoutSeconds, detail: `min duration is ${MIN_REMEDIATION_TIMEOUT_SECONDS} seconds` });
  }
  if (strategy.type !== REBOOT_STRATEGY) {
    errors.push({ type: 'Invalid', field: `${base}.type`, value: strategy.type ?? '', detail: `the only supported remediation strategy is ${REBOOT_STRATEGY}` });
  }
  if (strategy.retryLimit < 1) errors.push({ type: 'Invalid', field: `${base}.retryLimit`, value: strategy.retryLimit, detail: 'minimum retry limit is 1' });
  return errors;
}

export const metal3RemediationRules: ValidatingRules<Metal3Remediation> = {
  kind: 'Metal3Remediation',
  schema: metal3RemediationSchema,
  validate: (remediation) => ({ errors: strategyErrors(remediation.spec.strategy, 'spec.strategy') }),
};

const metal3RemediationTemplateSchema = z.looseObject({ metadata: objectMetaSchema, spec: metal3RemediationTemplateSpecSchema });
type Metal3RemediationTemplate = z.infer<typeof metal3RemediationTemplateSchema>;

export const metal3RemediationTemplateRules: ValidatingRules<Metal3RemediationTemplate> = {
  kind: 'Metal3RemediationTemplate',
  schema: metal3RemediationTemplateSchema,
  validate: (template) => ({ errors: strategyErrors(template.spec.template.spec.strategy, 'spec.template.spec.strategy') }),
};

const isUnset = (value: unknown) => value === undefined || value === null || value === 0 || value === '';
const STRATEGY = ['spec', 'template', 'spec', 'strategy'];

/** CAPM3 fills a template's strategy: Reboot, 600 s, one retry; every Metal3Remediation cloned from it then has them. */
export const metal3RemediationTemplateDefaults: DefaultingRules = {
  kind: 'Metal3RemediationTemplate',
  defaults: (object) => defaultsAt(object, [
    { path: [...STRATEGY, 'type'], value: REBOOT_STRATEGY, isZero: isUnset },
    { path: [...STRATEGY, 'timeoutSeconds'], value: DEFAULT_REMEDIATION_TIMEOUT_SECONDS, isZero: isUnset },
    { path: [...STRATEGY, 'retryLimit'], value: 1, isZero: (value) => isUnset(value) || (typeof value === 'number' && value < 1) },
  ]),
};
