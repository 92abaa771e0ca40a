import { z } from 'zod';
import { aggregateMessage } from './admission-violation.ts';
import type { Violation } from './admission-violation.ts';
import type { Logger } from './logger.ts';
import type { JsonPatchOperation } from './resource-client.ts';

/** The part of an admission.k8s.io/v1 AdmissionReview request a validator needs. */
export const admissionReviewSchema = z.looseObject({
  apiVersion: z.literal('admission.k8s.io/v1'),
  kind: z.literal('AdmissionReview'),
  request: z.looseObject({
    uid: z.string(),
    operation: z.enum(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']),
    namespace: z.string().optional(),
    name: z.string().optional(),
    object: z.unknown().optional(),
    oldObject: z.unknown().optional(),
  }),
});

export type AdmissionRequest = z.infer<typeof admissionReviewSchema>['request'];

export interface AdmissionResponseBody {
  apiVersion: 'admission.k8s.io/v1';
  kind: 'AdmissionReview';
  response: {
    uid: string;
    allowed: boolean;
    /** A mutating webhook's changes: base64 of a JSON Patch (RFC 6902) array. */
    patchType?: 'JSONPatch';
    patch?: string;
    /** Shown by kubectl as "Warning: ..." whether allowed or not. */
    warnings?: string[];
    status?: {
      code: number;
      reason: string;
      message: string;
      /** NewInvalid's details: kubectl prints `The <kind> "<name>" is invalid: ...` from them. */
      details?: { name?: string; group?: string; kind?: string; causes: { type: string; field: string; message: string }[] };
    };
  };
}

/** An allowed request, with any warnings for the user. */
export function allowed(uid: string, options: { warnings?: readonly string[] } = {}): AdmissionResponseBody {
  const warnings = options.warnings ?? [];
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: true, ...(warnings.length > 0 ? { warnings: [...warnings] } : {}) } };
}

/** An allowed request with a defaulting webhook's changes; no patch when there is nothing to change. */
export function patched(uid: string, operations: readonly JsonPatchOperation[]): AdmissionResponseBody {
  if (operations.length === 0) return allowed(uid);
  const patch = Buffer.from(JSON.stringify(operations)).toString('base64');
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: true, patchType: 'JSONPatch', patch } };
}

/**
 * A denial as controller-runtime sends one for a validator's error (403 Forbidden, the message
 * as is), with each violation also listed as a cause naming its field.
 */
export function denied(uid: string, options: { message: string; violations?: readonly Violation[]; warnings?: readonly string[] }): AdmissionResponseBody {
  const causes = (options.violations ?? []).map((violation) => ({ type: 'FieldValueForbidden', field: violation.field, message: violation.message }));
  return refusal(uid, {
    status: { code: 403, reason: 'Forbidden', message: options.message, ...(causes.length > 0 ? { details: { causes } } : {}) },
    warnings: options.warnings ?? [],
  });
}

type RefusalStatus = NonNullable<AdmissionResponseBody['response']['status']>;

/** A refused request with the status the API server passes on to the client. */
function refusal(uid: string, options: { status: RefusalStatus; warnings: readonly string[] }): AdmissionResponseBody {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    response: { uid, allowed: false, ...(options.warnings.length > 0 ? { warnings: [...options.warnings] } : {}), status: options.status },
  };
}

/**
 * The answer to a request once its rules were checked: allowed when nothing is broken, else
 * denied with every violation (one message, as BMO's errors aggregate); logged either way.
 */
export function verdict(
  request: AdmissionRequest,
  options: {
    target: { namespace?: string | undefined; name?: string | undefined };
    violations: readonly Violation[];
    logger: Logger;
    warnings?: readonly string[];
  },
): AdmissionResponseBody {
  const operation = request.operation.toLowerCase();
  if (options.violations.length === 0) {
    options.logger.debug(`validate ${operation}`, options.target);
    return allowed(request.uid, { warnings: options.warnings ?? [] });
  }
  const message = aggregateMessage(options.violations);
  options.logger.info(`validate ${operation}: denied`, { ...options.target, reason: message });
  return denied(request.uid, { message, violations: options.violations, warnings: options.warnings ?? [] });
}

/** A field error as Kubernetes' apimachinery words it (field.Invalid, field.Required, field.Forbidden). */
export interface FieldError {
  type: 'Invalid' | 'Required' | 'Forbidden';
  /** JSON path, e.g. `spec.controlPlaneEndpoint`. */
  field: string;
  detail: string;
  /** The offending value, printed with Invalid. */
  value?: unknown;
}

const CAUSE_TYPES = { Invalid: 'FieldValueInvalid', Required: 'FieldValueRequired', Forbidden: 'FieldValueForbidden' } as const;

/** apimachinery prints strings quoted, numbers and booleans bare, nothing as null. */
function printedValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The part of a field error's text after its field: `Invalid value: "": is required`. */
export function fieldErrorBody(error: FieldError): string {
  switch (error.type) {
    case 'Invalid':
      return `Invalid value: ${printedValue(error.value)}: ${error.detail}`;
    case 'Required':
      return `Required value: ${error.detail}`;
    case 'Forbidden':
      return `Forbidden: ${error.detail}`;
  }
}

/**
 * A denial as controller-runtime sends one for apierrors.NewInvalid (422 Invalid), worded as
 * kubectl prints it: `Kind.group "name" is invalid: [field: body, ...]`, one cause per field error.
 */
export function invalid(
  uid: string,
  options: { kind: string; group: string; name: string; errors: readonly FieldError[]; warnings?: readonly string[] },
): AdmissionResponseBody {
  const texts = options.errors.map((error) => `${error.field}: ${fieldErrorBody(error)}`);
  const aggregate = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return refusal(uid, {
    status: {
      code: 422,
      reason: 'Invalid',
      message: `${options.kind}.${options.group} ${JSON.stringify(options.name)} is invalid: ${aggregate}`,
      details: {
        name: options.name, group: options.group, kind: options.kind,
        causes: options.errors.map((error) => ({ type: CAUSE_TYPES[error.type], field: error.field, message: fieldErrorBody(error) })),
      },
    },
    warnings: options.warnings ?? [],
  });
}
