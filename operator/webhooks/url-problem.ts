import { goRequestUriProblem } from './go-request-uri.ts';

/** The URL schemes BMO's webhooks accept for images and firmware. */
const ALLOWED_URL_SCHEMES = ['http', 'https', 'ftp', 'gopher', 'oci'];

/**
 * BMO's URL check, shared by its webhooks (Go's `url.ParseRequestURI`, then a scheme list): the
 * error detail as Go words it, or undefined for a good URL.
 */
export function urlProblem(url: string): string | undefined {
  const problem = goRequestUriProblem(url);
  if (problem !== undefined) return `parse ${JSON.stringify(url)}: ${problem}`;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1];
  const lowered = (scheme ?? '').toLowerCase();
  if (!ALLOWED_URL_SCHEMES.includes(lowered)) return `invalid scheme in URL, "${lowered}" not allowed`;
  return undefined;
}
