import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from './logger.ts';
import { reloadCertificate } from './certificate-reload.ts';
import { secureContextOptions } from './tls-policy.ts';
import type { TlsPolicy } from './tls-policy.ts';

export interface BindAddress {
  host: string;
  port: number;
}

/**
 * controller-runtime bind addresses: `:8080` (all interfaces), `127.0.0.1:8080`,
 * `[::1]:8080`; `0` disables the server. Returns `null` for disabled.
 */
export function parseBindAddress(text: string): BindAddress | null {
  const value = text.trim();
  if (value === '0') return null;
  const match = /^(\[[^\]]+\]|[^:[\]]*):(\d{1,5})$/.exec(value);
  if (!match) throw new Error(`"${text}" is not host:port, :port or 0`);
  const port = Number(match[2]);
  if (port > 65535) throw new Error(`port ${port} is out of range`);
  const host = (match[1] ?? '').replace(/^\[|\]$/g, '');
  return { host: host || '0.0.0.0', port };
}

export interface HttpResponse {
  status: number;
  contentType?: string;
  /** Text, or chunks written as the client takes them. */
  body: string | Iterable<string>;
}

export type RouteHandler = (request: { url: URL; method: string }) => Promise<HttpResponse>;

export interface RunningServer {
  /** The bound address (useful with port 0). */
  address: BindAddress;
  close(): Promise<void>;
}

/** Checks a request before its route runs: a response refuses it, undefined lets it through. */
export type RequestGuard = (request: { authorization: string | undefined; method: string; path: string }) => Promise<HttpResponse | undefined>;

/** Routes by exact path; for probes and metrics only, so no framework. With `tls`, HTTPS. */
export async function startHttpServer(options: {
  name: string;
  bindAddress: BindAddress;
  routes: Record<string, RouteHandler>;
  logger: Logger;
  /** HTTPS with this pair; with `certDir` (where the pair was read), reloaded when its tls.crt changes (cert-manager renews it). */
  tls?: { cert: string | Buffer; key: string | Buffer; policy?: TlsPolicy; certDir?: string };
  guard?: RequestGuard;
}): Promise<RunningServer> {
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handler = options.routes[url.pathname];
    const respond = (response: HttpResponse): void => {
      res.writeHead(response.status, { 'Content-Type': response.contentType ?? 'text/plain; charset=utf-8' });
      if (req.method === 'HEAD') res.end();
      else if (typeof response.body === 'string') res.end(response.body);
      else {
        // The status is out: a failure now can only cut the body short, which the client sees.
        pipeline(Readable.from(response.body), res).catch((error: unknown) => {
          options.logger.error('http response failed', { server: options.name, path: url.pathname, error });
        });
      }
    };
    const method = req.method ?? 'GET';
    const guard = options.guard ?? (async () => undefined);
    guard({ authorization: req.headers.authorization, method, path: url.pathname })
      .then((refusal) => refusal ?? (handler ? handler({ url, method }) : { status: 404, body: 'not found\n' }))
      .then(respond, (error: unknown) => {
        options.logger.error('http handler failed', { server: options.name, path: url.pathname, error });
        respond({ status: 500, body: 'internal error\n' });
      });
  };
  const server: Server = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key, ...secureContextOptions(options.tls.policy) }, handle) : createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.bindAddress.port, options.bindAddress.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  options.logger.info('serving', { server: options.name, address: `${bound.address}:${bound.port}`, secure: options.tls !== undefined });
  const stopReloading = options.tls?.certDir ? reloadCertificate(server as HttpsServer, { certDir: options.tls.certDir, name: options.name, logger: options.logger, ...(options.tls.policy ? { policy: options.tls.policy } : {}) }) : () => {};
  return {
    address: { host: bound.address, port: bound.port },
    close: () =>
      new Promise<void>((resolve) => {
        stopReloading();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
