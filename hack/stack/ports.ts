import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// A port the kernel hands out for `listen(0)` lies in its ephemeral range, which is also where
// every outgoing loopback connection takes its source port: between probing such a port and the
// service binding it, another process's connection to Ironic or an API server may take it
// (EADDRINUSE). Ports are therefore chosen below that range, where the kernel never hands any
// out by itself, and probed; one process never hands out the same port twice.

/** Ports below this are left alone (well-known and registered services people run). */
const LOWEST_PORT = 10_000;
const ATTEMPTS = 200;
const handedOut = new Set<number>();

/** The kernel's ephemeral port range, if it can be read (Linux). */
export function ephemeralPortRange(path = '/proc/sys/net/ipv4/ip_local_port_range'): { low: number; high: number } | undefined {
  try {
    const [low, high] = readFileSync(path, 'utf8').trim().split(/\s+/).map(Number);
    return Number.isInteger(low) && Number.isInteger(high) ? { low: low!, high: high! } : undefined;
  } catch {
    return undefined;
  }
}

/** A free loopback TCP port, outside the kernel's ephemeral range when there is room below it. */
export async function freePort(options: { random?: () => number; range?: { low: number; high: number } | undefined } = {}): Promise<number> {
  const range = 'range' in options ? options.range : ephemeralPortRange();
  const random = options.random ?? Math.random;
  if (range !== undefined && range.low - LOWEST_PORT >= 1_000) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const candidate = LOWEST_PORT + Math.floor(random() * (range.low - LOWEST_PORT));
      if (handedOut.has(candidate)) continue;
      if (await canListen(candidate)) {
        handedOut.add(candidate);
        return candidate;
      }
    }
  }
  return kernelPort();
}

/** Distinct free ports. */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Asks the kernel for a free loopback port (in its ephemeral range). */
function kernelPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port of a probe socket'));
        return;
      }
      const { port } = address;
      server.close(() => resolvePort(port));
    });
  });
}
