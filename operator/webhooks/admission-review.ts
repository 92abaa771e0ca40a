import { z } from 'zod';
import type { Logger } from '../runtime/index.ts';
import { aggregateMessage } from './baremetalhost/index.ts';
import type { Violation } from './baremetalhost/index.ts';

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
    status?: {
      code: number;
      reason: string;
      message: string;
      details?: { causes: { type: string; field: string; message: string }[] };
    };
  };
}

/** An allowed request. */
export function allowed(uid: string): AdmissionResponseBody {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: true } };
}

/**
 * A denial as controller-runtime sends one for a validator's error (403 Forbidden, the message
 * as is), with each violation also listed as a cause naming its field.
 */
export function denied(uid: string, options: { message: string; violations?: readonly Violation[] }): AdmissionResponseBody {
  const causes = (options.violations ?? []).map((violation) => ({ type: 'FieldValueForbidden', field: violation.field, message: violation.message }));
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    response: {
      uid,
      allowed: false,
      status: { code: 403, reason: 'Forbidden', message: options.message, ...(causes.length > 0 ? { details: { causes } } : {}) },
    },
  };
}

/**
 * The answer to a request once its rules were checked: allowed when nothing is broken, else
 * denied with every violation (one message, as BMO's errors aggregate); logged either way.
 */
export function verdict(
  request: AdmissionRequest,
  options: { target: { namespace?: string | undefined; name?: string | undefined }; violations: readonly Violation[]; logger: Logger },
): AdmissionResponseBody {
  const operation = request.operation.toLowerCase();
  if (options.violations.length === 0) {
    options.logger.debug(`validate ${operation}`, options.target);
    return allowed(request.uid);
  }
  const message = aggregateMessage(options.violations);
  options.logger.info(`validate ${operation}: denied`, { ...options.target, reason: message });
  return denied(request.uid, { message, violations: options.violations });
}
