import { dataImageSchema } from '../api/dataimage.ts';
import type { Logger } from '../runtime/index.ts';
import type { AdmissionRequest, AdmissionResponseBody } from '../runtime/index.ts';
import { allowed, denied } from '../runtime/index.ts';
import { urlProblem } from './url-problem.ts';

/** BMO's path for the DataImage validating webhook. */
export const DATAIMAGE_WEBHOOK_PATH = '/validate-metal3-io-v1alpha1-dataimage';

/** Answers an AdmissionReview for a DataImage create or update: BMO checks only the URL, with the host image's rule. */
export function reviewDataImage(request: AdmissionRequest, deps: { logger: Logger }): AdmissionResponseBody {
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return allowed(request.uid);
  const parsed = dataImageSchema.safeParse(request.object);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    return denied(request.uid, { message: `not a valid DataImage: ${detail}` });
  }
  const image = { namespace: request.namespace, name: request.name ?? parsed.data.metadata.name };
  const { url } = parsed.data.spec;
  const problem = urlProblem(url);
  if (problem === undefined) {
    deps.logger.debug(`validate ${request.operation.toLowerCase()}`, image);
    return allowed(request.uid);
  }
  const message = `URL ${JSON.stringify(url)} is invalid: ${problem}`;
  deps.logger.info(`validate ${request.operation.toLowerCase()}: denied`, { ...image, reason: message });
  return denied(request.uid, { message, violations: [{ field: 'spec.url', message }] });
}
