/** CAPM3's admission webhooks: its defaulting and validation rules, at the paths its webhook configuration names. */
import type { AdmissionHandler, Logger } from '../../operator/runtime/index.ts';
import { metal3ClusterDefaults, metal3ClusterRules, metal3ClusterTemplateRules } from './metal3cluster-rules.ts';
import { metal3DataClaimRules, metal3DataRules } from './metal3data-rules.ts';
import { metal3DataTemplateRules } from './metal3datatemplate-rules.ts';
import { metal3MachineRules, metal3MachineTemplateRules } from './metal3machine-rules.ts';
import { metal3RemediationRules, metal3RemediationTemplateDefaults, metal3RemediationTemplateRules } from './metal3remediation-rules.ts';
import { defaultingHandler, validatingHandler } from './review.ts';
import type { DefaultingRules, ValidatingRules } from './review.ts';
import { mutatePath, validatePath } from './webhook-paths.ts';

export { machineImageErrors, machineSpecErrors, secretNamespaceErrors } from './machine-spec-rules.ts';
export { mutatePath, validatePath } from './webhook-paths.ts';
export { CONVERSION_PATH, conversionHandler } from './conversion.ts';

/** Every webhook CAPM3's main.go sets up, by path. */
export function providerWebhookHandlers(deps: { logger: Logger }): Record<string, AdmissionHandler> {
  const validating = <T>(rules: ValidatingRules<T>): [string, AdmissionHandler] =>
    [validatePath(rules.kind), validatingHandler(rules, { logger: deps.logger.child({ webhook: rules.kind }) })];
  const defaulting = (rules: DefaultingRules): [string, AdmissionHandler] =>
    [mutatePath(rules.kind), defaultingHandler(rules, { logger: deps.logger.child({ webhook: rules.kind }) })];
  return Object.fromEntries([
    validating(metal3ClusterRules), defaulting(metal3ClusterDefaults), validating(metal3ClusterTemplateRules),
    validating(metal3MachineRules), validating(metal3MachineTemplateRules),
    validating(metal3DataTemplateRules), validating(metal3DataRules), validating(metal3DataClaimRules),
    validating(metal3RemediationRules), validating(metal3RemediationTemplateRules), defaulting(metal3RemediationTemplateDefaults),
  ]);
}
