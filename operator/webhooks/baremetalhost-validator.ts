import { bareMetalHostSchema } from '../api/baremetalhost.ts';
import type { Logger } from '../runtime/index.ts';
import type { AdmissionRequest, AdmissionResponseBody } from '../runtime/index.ts';
import { allowed, denied, verdict } from '../runtime/index.ts';
import { validateHost, validateHostUpdate } from './baremetalhost/index.ts';
import type { HostValidationOptions } from './baremetalhost/index.ts';

/** BMO's path for the BareMetalHost validating webhook. */
export const BAREMETALHOST_WEBHOOK_PATH = '/validate-metal3-io-v1alpha1-baremetalhost';

/** Answers an AdmissionReview for a BareMetalHost create or update. */
export function reviewBareMetalHost(request: AdmissionRequest, deps: { options: HostValidationOptions; logger: Logger }): AdmissionResponseBody {
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return allowed(request.uid);
  const updated = parseHost(request.object);
  if (!updated.success) {
    const detail = updated.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    return denied(request.uid, { message: `not a valid BareMetalHost: ${detail}` });
  }
  const old = request.operation === 'UPDATE' ? parseHost(request.oldObject) : undefined;
  const violations = old?.success
    ? validateHostUpdate(old.data, updated.data, deps.options)
    : validateHost(updated.data, deps.options);
  const host = { namespace: request.namespace, name: request.name ?? updated.data.metadata.name };
  return verdict(request, { target: host, violations, logger: deps.logger });
}

/**
 * The host as the rules read it. BMO's webhook never checks a status: one this schema cannot
 * read (a state or field a newer BMO wrote, say) is left out rather than refusing the update, so
 * such a host can still lose its finalizer.
 */
function parseHost(object: unknown): ReturnType<typeof bareMetalHostSchema.safeParse> {
  const parsed = bareMetalHostSchema.safeParse(object);
  if (parsed.success || !parsed.error.issues.every((issue) => issue.path[0] === 'status')) return parsed;
  return bareMetalHostSchema.safeParse({ ...(object as object), status: undefined });
}
