import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, normalize, sep } from 'node:path';
import type { OciRegistry } from './oci-registry.ts';

export interface ArtifactsServerOptions {
  root: string;
  host: string;
  port: number;
  /** Also an OCI registry under /v2/, its requests listed at GET /registry/requests. */
  registry?: OciRegistry | undefined;
}

/**
 * A static file server for deploy kernels/ramdisks, Ironic's HTTP root and test
 * images, with Last-Modified as a web server sends it. GET and HEAD only; paths never escape the root.
 */
export function createArtifactsServer(options: ArtifactsServerOptions): Server {
  return createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const urlPath = new URL(request.url ?? '/', 'http://artifacts').pathname;
    if (options.registry && (urlPath === '/v2' || urlPath.startsWith('/v2/'))) {
      options.registry.handle(request, response, urlPath);
      return;
    }
    if (options.registry && urlPath === '/registry/requests') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(options.registry.records));
      return;
    }
    const path = resolveInside(options.root, urlPath);
    const stat = path === undefined ? undefined : statOrUndefined(path);
    if (path === undefined || stat === undefined || !stat.isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    // Ironic keeps its cached master copy of a deploy kernel or ramdisk only when the server says
    // when the file last changed; without it every boot re-downloads the master while other
    // nodes' boots link from it (their preparation then fails on the missing `.converted` file).
    response.writeHead(200, { 'content-length': stat.size, 'content-type': 'application/octet-stream',
      'last-modified': stat.mtime.toUTCString() });
    if (request.method === 'HEAD') response.end();
    else createReadStream(path).pipe(response);
  });
}

function resolveInside(root: string, urlPath: string): string | undefined {
  const decoded = decodeURIComponent(urlPath);
  const candidate = normalize(join(root, decoded));
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep) ? candidate : undefined;
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
