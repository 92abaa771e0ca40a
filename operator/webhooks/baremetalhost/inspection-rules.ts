import { INSPECT_ANNOTATION, INSPECT_ANNOTATION_DISABLED } from '../../api/annotations.ts';
import { INSPECTION_MODES } from '../../api/baremetalhost-enums.ts';
import type { HostUnderValidation } from './validation-context.ts';
import type { Violation } from '../../runtime/index.ts';

const FIELD = 'spec.inspectionMode';

/** inspectionMode must agree with the legacy annotation and be something the BMC can do. */
export function inspectionModeViolations({ host, access }: HostUnderValidation): Violation[] {
  const annotation = host.metadata.annotations?.[INSPECT_ANNOTATION] ?? '';
  const mode: string = host.spec.inspectionMode ?? '';
  if (annotation !== '' && mode !== '' && (annotation === INSPECT_ANNOTATION_DISABLED) !== (mode === 'disabled')) {
    return [{ field: FIELD, message: 'inspect.metal3.io annotation and inspectionMode field have contradicting values' }];
  }
  if (mode !== '' && !(INSPECTION_MODES as readonly string[]).includes(mode)) {
    return [{ field: FIELD, message: `invalid inspectionMode value: ${mode}, allowed values are 'disabled', 'agent', or 'fast'` }];
  }
  if (mode === 'fast' && access !== undefined && access.interfaces.inspect === '') {
    return [{ field: FIELD, message: `BMC driver ${access.type} does not support fast (out-of-band) inspection` }];
  }
  return [];
}
