// Host/port splitting as Go does it: `url.URL.Hostname()/Port()` and `net.SplitHostPort`.

/** True for '' or ':' followed by digits only (Go's `validOptionalPort`). */
export function isValidOptionalPort(port: string): boolean {
  if (port === '') return true;
  return /^:[0-9]*$/.test(port);
}

/** Go's `url.URL` host split: a trailing `:digits` is the port, surrounding brackets are dropped. */
export function splitURLHost(hostPort: string): { hostname: string; port: string } {
  let hostname = hostPort;
  let port = '';
  const colon = hostPort.lastIndexOf(':');
  if (colon !== -1 && isValidOptionalPort(hostPort.slice(colon))) {
    hostname = hostPort.slice(0, colon);
    port = hostPort.slice(colon + 1);
  }
  if (hostname.startsWith('[') && hostname.endsWith(']')) hostname = hostname.slice(1, -1);
  return { hostname, port };
}

/** Whether Go's `net.SplitHostPort` accepts the string (we only need the verdict). */
export function isSplittableHostPort(hostPort: string): boolean {
  const lastColon = hostPort.lastIndexOf(':');
  if (lastColon < 0) return false;
  let openingCheckFrom = 0;
  let closingCheckFrom = 0;
  if (hostPort.startsWith('[')) {
    const end = hostPort.indexOf(']');
    if (end < 0 || end + 1 !== lastColon) return false;
    openingCheckFrom = 1;
    closingCheckFrom = end + 1;
  } else if (hostPort.slice(0, lastColon).includes(':')) {
    return false;
  }
  return !hostPort.slice(openingCheckFrom).includes('[') && !hostPort.slice(closingCheckFrom).includes(']');
}
