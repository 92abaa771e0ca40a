import { imageChecksum } from '../../configdrive/image.ts';
import type { HostUnderValidation } from './validation-context.ts';
import type { Violation } from './violation.ts';

const ALLOWED_URL_SCHEMES = ['http', 'https', 'ftp', 'gopher', 'oci'];

/** BMO's URL check (Go's `url.ParseRequestURI`, then a scheme list); the error detail, or undefined. */
export function urlProblem(url: string): string | undefined {
  if (url === '') return 'parse "": empty url';
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1];
  if (scheme === undefined && !url.startsWith('/')) return `parse ${JSON.stringify(url)}: invalid URI for request`;
  const lowered = (scheme ?? '').toLowerCase();
  if (!ALLOWED_URL_SCHEMES.includes(lowered)) return `invalid scheme in URL, "${lowered}" not allowed`;
  return undefined;
}

/** The image must be fetchable (URL scheme) and verifiable (checksum unless OCI or live ISO). */
export function imageViolations({ host }: HostUnderValidation): Violation[] {
  const image = host.spec.image;
  if (image === undefined) return [];
  const violations: Violation[] = [];
  const problem = urlProblem(image.url);
  if (problem !== undefined) violations.push({ field: 'spec.image.url', message: `image URL ${image.url} is invalid: ${problem}` });
  const checksum = imageChecksum(image);
  if (!checksum.ok) violations.push({ field: 'spec.image.checksum', message: checksum.message });
  return violations;
}
