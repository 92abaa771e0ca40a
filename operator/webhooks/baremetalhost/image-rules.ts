import type { Image } from '../../api/image.ts';
import { imageChecksum } from '../../configdrive/image.ts';
import { urlProblem } from '../url-problem.ts';
import type { HostUnderValidation } from './validation-context.ts';
import type { Violation } from '../../runtime/index.ts';

/** The image must be fetchable (URL scheme) and verifiable (checksum unless OCI or live ISO). */
export function imageViolations({ host }: HostUnderValidation): Violation[] {
  return host.spec.image === undefined ? [] : imageProblems(host.spec.image);
}

/** BMO's validateImage, for any object with a `spec.image` (a BareMetalHost, a HostClaim). */
export function imageProblems(image: Image): Violation[] {
  const violations: Violation[] = [];
  const problem = urlProblem(image.url);
  if (problem !== undefined) violations.push({ field: 'spec.image.url', message: `image URL ${image.url} is invalid: ${problem}` });
  const checksum = imageChecksum(image);
  if (!checksum.ok) violations.push({ field: 'spec.image.checksum', message: checksum.message });
  return violations;
}
