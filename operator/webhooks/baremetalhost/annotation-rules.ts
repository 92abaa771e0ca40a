import { z } from 'zod';
import {
  HARDWARE_DETAILS_ANNOTATION, INSPECT_ANNOTATION, REBOOT_ANNOTATION_PREFIX, STATUS_ANNOTATION,
} from '../../api/annotations.ts';
import { goJsonStruct } from '../../api/annotation-arguments.ts';
import { bareMetalHostStatusSchema, savedStatusFields } from '../../api/baremetalhost-status.ts';
import { ERROR_TYPES } from '../../api/error-type.ts';
import { hardwareDetailsSchema } from '../../api/hardware-details.ts';
import { OPERATIONAL_STATUSES } from '../../api/operational-status.ts';
import { parseLooseJson, parseStrictJson } from './strict-json.ts';
import type { HostUnderValidation } from './validation-context.ts';
import type { Violation } from '../../runtime/index.ts';

function statusProblem(value: string): string | undefined {
  if (value === '') return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch (error) {
    return `error decoding status annotation: ${(error as Error).message}`;
  }
  raw = savedStatusFields(raw);
  const fields = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const operationalStatus = fields['operationalStatus'] ?? '';
  if (typeof operationalStatus === 'string' && !(OPERATIONAL_STATUSES as readonly string[]).includes(operationalStatus)) {
    return `invalid operationalStatus '${operationalStatus}' in the ${STATUS_ANNOTATION} annotation`;
  }
  const errorType = fields['errorType'] ?? '';
  if (typeof errorType === 'string' && errorType !== '' && !(ERROR_TYPES as readonly string[]).includes(errorType)) {
    return `invalid errorType '${errorType}' in the ${STATUS_ANNOTATION} annotation`;
  }
  const parsed = parseStrictJson(JSON.stringify(raw), bareMetalHostStatusSchema.partial());
  return parsed.ok ? undefined : `error decoding status annotation: ${parsed.detail}`;
}

/** A JSON arguments annotation (reboot, detached): it must decode, and its one choice field take an allowed value. */
function argumentsProblem(value: string, options: { annotation: string; field: 'mode' | 'deleteAction'; allowed: readonly string[] }): string | undefined {
  if (value === '') return undefined;
  const parsed = parseLooseJson(value, goJsonStruct({ [options.field]: z.string().optional(), force: z.boolean().optional() }));
  if (!parsed.ok) return `failed to unmarshal the data from the ${options.annotation} annotation: ${parsed.detail}`;
  if ([...options.allowed, ''].includes((parsed.value[options.field] as string | undefined) ?? '')) return undefined;
  const allowed = `${options.allowed.map((choice) => `"${choice}"`).join(', ')} or ""`;
  return `invalid ${options.field} in the ${options.annotation} annotation, allowed are ${allowed}`;
}

function inspectProblem(value: string): string | undefined {
  if (value === '' || value === 'disabled') return undefined;
  return `invalid value for the ${INSPECT_ANNOTATION} annotation, allowed are "disabled" or ""`;
}

function hardwareDetailsProblem(value: string, inspectionDisabled: boolean): string | undefined {
  if (value === '') return undefined;
  if (!inspectionDisabled) {
    return 'when hardware details are provided, inspection must be disabled (either via inspect.metal3.io annotation or inspectionMode field)';
  }
  const parsed = parseStrictJson(value, hardwareDetailsSchema);
  return parsed.ok ? undefined : `error decoding the ${HARDWARE_DETAILS_ANNOTATION} annotation: ${parsed.detail}`;
}

/** BMO's validateRebootAnnotation for a `reboot.metal3.io[/<key>]` annotation; undefined for any other key or a good value. */
export function rebootAnnotationProblem(key: string, value: string): string | undefined {
  if (key !== REBOOT_ANNOTATION_PREFIX && !key.startsWith(`${REBOOT_ANNOTATION_PREFIX}/`)) return undefined;
  return argumentsProblem(value, { annotation: REBOOT_ANNOTATION_PREFIX, field: 'mode', allowed: ['hard', 'soft'] });
}

function problemOf(key: string, value: string, inspectionDisabled: boolean): string | undefined {
  if (key === STATUS_ANNOTATION) return statusProblem(value);
  const reboot = rebootAnnotationProblem(key, value);
  if (reboot !== undefined) return reboot;
  if (key === INSPECT_ANNOTATION) return inspectProblem(value);
  if (key === HARDWARE_DETAILS_ANNOTATION) return hardwareDetailsProblem(value, inspectionDisabled);
  // The detached annotation takes any value, as in BMO, whose documentation says so and whose users
  // set owner names ("assisted-service-controller") or "true": the controller reads a value it
  // cannot parse as a plain detach, and says so in an event.
  return undefined;
}

/** Values of the annotations BMO acts on must be ones it can act on. */
export function annotationViolations({ host, inspectionDisabled }: HostUnderValidation): Violation[] {
  return Object.entries(host.metadata.annotations ?? {}).flatMap(([key, value]) => {
    const message = problemOf(key, value, inspectionDisabled);
    return message === undefined ? [] : [{ field: `metadata.annotations[${key}]`, message }];
  });
}
