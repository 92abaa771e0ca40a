/**
 * BMO's check of a BMCEventSubscription destination: Go's `url.ParseRequestURI`, worded as Go
 * words its errors, then a path must be there (`http://host/`, not `http://host`). Returns the
 * problem, or undefined for a good destination.
 */
export function destinationProblem(destination: string): string | undefined {
  const quoted = JSON.stringify(destination);
  const controlCharacter = [...destination].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f);
  if (controlCharacter) return `destination is invalid: parse ${quoted}: net/url: invalid control character in URL`;
  if (destination.startsWith(':')) return `destination is invalid: parse ${quoted}: missing protocol scheme`;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(destination)?.[1];
  // Without a scheme only an absolute path is a request URI; with one, the rest must be a path or an authority.
  const rest = scheme === undefined ? destination : destination.slice(scheme.length + 1);
  if (!rest.startsWith('/')) return `destination is invalid: parse ${quoted}: invalid URI for request`;
  let path = rest;
  if (scheme !== undefined && rest.startsWith('//')) {
    const authorityEnd = rest.indexOf('/', 2);
    const authority = authorityEnd < 0 ? rest.slice(2) : rest.slice(2, authorityEnd);
    const host = authority.slice(authority.lastIndexOf('@') + 1);
    const badCharacter = /[\s<>"{}|\\^`]/.exec(host)?.[0];
    if (badCharacter !== undefined) return `destination is invalid: parse ${quoted}: invalid character ${JSON.stringify(badCharacter)} in host name`;
    path = authorityEnd < 0 ? '' : rest.slice(authorityEnd);
  }
  if (path === '') return 'hostname-only destination must have a trailing slash';
  return undefined;
}
