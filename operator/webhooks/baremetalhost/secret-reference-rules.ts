import type { HostUnderValidation } from './validation-context.ts';
import type { Violation } from '../../runtime/index.ts';

const SECRET_FIELDS = ['userData', 'networkData', 'metaData'] as const;

/** A host may only read Secrets of its own namespace (BMO answers Forbidden). */
export function secretReferenceViolations({ host }: HostUnderValidation): Violation[] {
  const namespace = host.metadata.namespace ?? '';
  return SECRET_FIELDS.flatMap((field) => {
    const reference = host.spec[field];
    if (!reference?.namespace || reference.namespace === namespace) return [];
    return [{
      field: `spec.${field}.namespace`,
      message: `baremetalhosts.metal3.io "${host.metadata.name ?? ''}" is forbidden: ${field}: cross-namespace Secret references are not allowed`,
    }];
  });
}
