import { goRequestUriProblem } from './go-request-uri.ts';

/**
 * BMO's check of a BMCEventSubscription destination: Go's `url.ParseRequestURI`, worded as Go
 * words its errors, then a path must be there (`http://host/`, not `http://host`). Returns the
 * problem, or undefined for a good destination.
 */
export function destinationProblem(destination: string): string | undefined {
  const problem = goRequestUriProblem(destination);
  if (problem !== undefined) return `destination is invalid: parse ${JSON.stringify(destination)}: ${problem}`;
  if (goRequestPath(destination) === '') return 'hostname-only destination must have a trailing slash';
  return undefined;
}

/** The path of a URL Go's `url.ParseRequestURI` took: empty for `http://host`, `http://host?q` and opaque `mailto:x`. */
function goRequestPath(url: string): string {
  if (url === '*') return url;
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.exec(url)?.[0];
  const rest = url.slice(scheme?.length ?? 0).split('?', 1)[0]!;
  // With a scheme, text not starting with a slash is opaque (no path); `//` opens an authority.
  if (scheme === undefined) return rest;
  if (!rest.startsWith('/')) return '';
  if (!rest.startsWith('//')) return rest;
  const slash = rest.indexOf('/', 2);
  return slash < 0 ? '' : rest.slice(slash);
}
