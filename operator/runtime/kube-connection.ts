// The HTTP layer under KubeClient, on Node's own http/https (nothing to import: client-node's
// index and undici cost ~80 MiB of RSS at start-up). Keep-alive agents, so requests reuse the
// same TLS connections instead of a handshake each: one for requests, with a cap, and one for
// watches, which hold a connection each for minutes and must never wait behind the cap.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { sleep, systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import type { KubeCluster, KubeConfig, KubeUser } from './kube-config.ts';
import { BucketRateLimiter } from './rate-limiter.ts';

export interface KubeConnectionOptions {
  /** Called for every new TCP connection (the connections-opened metric). */
  onConnect?: () => void;
  /** Connections open at once for requests (not watches); more requests wait for a free one. */
  maxRequestConnections?: number;
  /**
   * client-go's client-side limit (`--kube-api-qps`, `--kube-api-burst`): every request, watches
   * included, takes a token first and waits while the bucket is empty. None when omitted.
   */
  rateLimit?: KubeRateLimit;
}

export interface KubeRateLimit {
  /** Sustained requests per second. */
  qps: number;
  /** Requests that may go at once after a quiet spell. */
  burst: number;
  clock?: Clock;
}

/**
 * A burst of writes (Events queued by many reconciles at once) would otherwise open a connection
 * per request: 40–95 handshakes in the 200-host benchmark's deletion phase. The operator runs
 * 2 workers per controller (BMO_CONCURRENCY), so 16 leaves every worker a connection.
 */
export const DEFAULT_MAX_REQUEST_CONNECTIONS = 16;

export interface KubeHttpRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** A projected ServiceAccount token rotates; client-go re-reads the file about once a minute. */
const TOKEN_FILE_REREAD_MS = 60_000;

/** The TLS settings of a cluster and user, files read once. */
export function tlsOptionsFor(cluster: KubeCluster, user: KubeUser | undefined): https.AgentOptions {
  const readIf = (path: string | undefined): string | undefined => (path ? readFileSync(path, 'utf8') : undefined);
  const options: https.AgentOptions = {};
  const ca = cluster.caData ?? readIf(cluster.caFile);
  if (ca) options.ca = ca;
  if (cluster.skipTLSVerify) options.rejectUnauthorized = false;
  if (cluster.tlsServerName) options.servername = cluster.tlsServerName;
  const cert = user?.certData ?? readIf(user?.certFile);
  const key = user?.keyData ?? readIf(user?.keyFile);
  if (cert) options.cert = cert;
  if (key) options.key = key;
  return options;
}

/** The Authorization header for a user's token, token file or basic credentials; none for certificate users. */
export function authorizationFor(user: KubeUser | undefined, readTokenFile: (path: string) => string): string | undefined {
  if (!user) return undefined;
  if (user.token) return `Bearer ${user.token}`;
  if (user.tokenFile) return `Bearer ${readTokenFile(user.tokenFile).trim()}`;
  if (user.username !== undefined && user.password !== undefined) {
    return `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;
  }
  return undefined;
}

/** A server closed an idle kept-alive connection just as a request went out on it: safe to send again. */
function isStaleSocket(error: unknown, request: http.ClientRequest): boolean {
  const code = (error as { code?: unknown }).code;
  return request.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE');
}

export class KubeConnection {
  /** The cluster's server URL without a trailing slash. */
  readonly server: string;
  readonly #user: KubeUser | undefined;
  readonly #agent: http.Agent;
  readonly #watchAgent: http.Agent;
  readonly #request: typeof http.request;
  readonly #throttle: { bucket: BucketRateLimiter<void>; clock: Clock } | undefined;
  #token: { path: string; value: string; readAt: number } | undefined;

  constructor(kubeConfig: KubeConfig, options: KubeConnectionOptions = {}) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    this.server = cluster.server.replace(/\/+$/, '');
    this.#user = kubeConfig.getCurrentUser();
    const secure = new URL(this.server).protocol === 'https:';
    const tls = secure ? tlsOptionsFor(cluster, this.#user) : {};
    const newAgent = (maxSockets: number): http.Agent => (secure ? new https.Agent({ keepAlive: true, maxSockets, ...tls }) : new http.Agent({ keepAlive: true, maxSockets }));
    this.#agent = newAgent(options.maxRequestConnections ?? DEFAULT_MAX_REQUEST_CONNECTIONS);
    this.#watchAgent = newAgent(Infinity);
    this.#request = secure ? https.request : http.request;
    if (options.rateLimit) {
      const clock = options.rateLimit.clock ?? systemClock;
      this.#throttle = { bucket: new BucketRateLimiter<void>({ qps: options.rateLimit.qps, burst: options.rateLimit.burst, clock }), clock };
    }
    const { onConnect } = options;
    if (onConnect) {
      for (const agent of [this.#agent, this.#watchAgent] as Array<http.Agent & { createConnection(options: object, callback?: unknown): Duplex }>) {
        // createConnection is the agent's documented hook for making a new socket.
        const create = agent.createConnection.bind(agent);
        agent.createConnection = (connectOptions, callback) => {
          onConnect();
          return create(connectOptions, callback);
        };
      }
    }
  }

  #authorization(): string | undefined {
    return authorizationFor(this.#user, (path) => {
      const now = Date.now();
      if (!this.#token || this.#token.path !== path || now - this.#token.readAt > TOKEN_FILE_REREAD_MS) {
        this.#token = { path, value: readFileSync(path, 'utf8'), readAt: now };
      }
      return this.#token.value;
    });
  }

  /** Sends a request and resolves with the response once its headers are in; the body is the caller's to read. */
  async send(request: KubeHttpRequest, options: { watch?: boolean } = {}): Promise<IncomingMessage> {
    if (this.#throttle) {
      // The token is reserved now, so requests leave in the order they asked, as with x/time/rate.
      const waitMs = this.#throttle.bucket.when();
      if (waitMs > 0) await sleep(this.#throttle.clock, waitMs, request.signal);
    }
    const agent = options.watch ? this.#watchAgent : this.#agent;
    const headers: Record<string, string> = { ...request.headers };
    const authorization = this.#authorization();
    if (authorization) headers.Authorization = authorization;
    if (request.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(request.body));
    const attempt = (retryStale: boolean): Promise<IncomingMessage> => new Promise((resolve, reject) => {
      const outgoing = this.#request(request.url, {
        method: request.method,
        headers,
        agent,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      outgoing.on('response', resolve);
      outgoing.on('error', (error) => {
        if (request.signal?.aborted) reject(request.signal.reason as Error);
        else if (retryStale && isStaleSocket(error, outgoing)) attempt(false).then(resolve, reject);
        else reject(error);
      });
      outgoing.end(request.body);
    });
    return attempt(true);
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.#agent.destroy();
    this.#watchAgent.destroy();
  }
}

/** The whole body of a response as text. */
export async function readText(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Splits a stream of newline-separated JSON (a watch) into parsed values; a line that is not JSON
 * is skipped. A chunk without a newline is only kept: one event can be megabytes (a FirmwareSchema
 * with 10,000 owners), and joining and re-splitting it at every 64 KiB chunk is quadratic.
 */
export class JsonLineSplitter {
  #pending: string[] = [];

  push(chunk: string, onValue: (value: unknown) => void): void {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
      const piece = chunk.slice(start, newline);
      const line = this.#pending.length ? this.#pending.join('') + piece : piece;
      this.#pending = [];
      this.#emit(line, onValue);
      start = newline + 1;
    }
    if (start < chunk.length) this.#pending.push(start === 0 ? chunk : chunk.slice(start));
  }

  /** The last line, when the stream ended without a newline. */
  end(onValue: (value: unknown) => void): void {
    const line = this.#pending.join('');
    this.#pending = [];
    this.#emit(line, onValue);
  }

  #emit(line: string, onValue: (value: unknown) => void): void {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return;
    }
    onValue(value);
  }
}
