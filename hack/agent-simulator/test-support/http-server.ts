import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CannedResponse {
  status?: number;
  body: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestHttpServer {
  url: string;
  /** Requests seen so far, as "METHOD /path?query". */
  requests: string[];
  close(): Promise<void>;
}

/** A loopback server answering fixed responses by path (404 for anything else), for unit tests. */
export async function startTestServer(
  routes: Record<string, CannedResponse | ((request: IncomingMessage, body: string) => CannedResponse)>,
): Promise<TestHttpServer> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
      const path = new URL(request.url ?? '/', 'http://test').pathname;
      const route = routes[path];
      const canned =
        route === undefined
          ? { status: 404, body: 'not found' }
          : typeof route === 'function'
            ? route(request, Buffer.concat(chunks).toString('utf8'))
            : route;
      response.writeHead(canned.status ?? 200, canned.headers ?? {});
      response.end(canned.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback URL nothing listens on (connection refused). */
export async function deadUrl(path = '/'): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}
