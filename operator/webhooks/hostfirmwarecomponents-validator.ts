import { hostFirmwareComponentsSchema } from '../api/hostfirmwarecomponents.ts';
import type { HostFirmwareComponents } from '../api/hostfirmwarecomponents.ts';
import type { Logger } from '../runtime/index.ts';
import type { AdmissionRequest, AdmissionResponseBody } from '../runtime/index.ts';
import { allowed, denied, verdict } from '../runtime/index.ts';
import type { Violation } from '../runtime/index.ts';
import { urlProblem } from './url-problem.ts';

/** BMO's path for the HostFirmwareComponents validating webhook. */
export const HOSTFIRMWARECOMPONENTS_WEBHOOK_PATH = '/validate-metal3-io-v1alpha1-hostfirmwarecomponents';

/** BMO's rule for HostFirmwareComponents, on create and update alike: every update's URL must be fetchable. */
export function validateHostFirmwareComponents(components: HostFirmwareComponents): Violation[] {
  return components.spec.updates.flatMap((update, index) => {
    const problem = urlProblem(update.url);
    if (problem === undefined) return [];
    return [{
      field: `spec.updates[${index}].url`,
      message: `invalid URL ${JSON.stringify(update.url)} in FirmwareUpdate in component ${JSON.stringify(update.component)}: ${problem}`,
    }];
  });
}

/** Answers an AdmissionReview for a HostFirmwareComponents create or update. */
export function reviewHostFirmwareComponents(request: AdmissionRequest, deps: { logger: Logger }): AdmissionResponseBody {
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return allowed(request.uid);
  const parsed = hostFirmwareComponentsSchema.safeParse(request.object);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    return denied(request.uid, { message: `not a valid HostFirmwareComponents: ${detail}` });
  }
  const violations = validateHostFirmwareComponents(parsed.data);
  const target = { namespace: request.namespace, name: request.name ?? parsed.data.metadata.name };
  return verdict(request, { target: target, violations, logger: deps.logger });
}
