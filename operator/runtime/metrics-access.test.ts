import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { describe, expect, it } from '@jest/globals';
import { startHttpServer } from './http-server.ts';
import type { KubeRequest, KubeTransport } from './kube-client.ts';
import { silentLogger } from './logger.ts';
import { MetricsAccessReviewer } from './metrics-access.ts';
import { selfSignedCertificate } from './self-signed-certificate.ts';
import { FakeClock } from './testing/index.ts';

/** An API server that knows two tokens (one user may get /metrics) and records each review. */
function reviewingApiServer(options: { failWith?: Error } = {}) {
  const requests: KubeRequest[] = [];
  const users: Record<string, { username: string; groups: string[] }> = {
    'reader-token': { username: 'system:serviceaccount:monitoring:prometheus', groups: ['system:serviceaccounts'] },
    'other-token': { username: 'system:serviceaccount:default:nobody', groups: ['system:serviceaccounts'] },
  };
  const transport: KubeTransport = {
    async request<T>(request: KubeRequest): Promise<T> {
      requests.push(request);
      if (options.failWith) throw options.failWith;
      const body = request.body as { spec: { token?: string; user?: string; nonResourceAttributes?: { path: string; verb: string } } };
      if (request.path.endsWith('/tokenreviews')) {
        const user = users[body.spec.token ?? ''];
        return { status: user ? { authenticated: true, user } : { authenticated: false } } as T;
      }
      const { path, verb } = body.spec.nonResourceAttributes!;
      return { status: { allowed: body.spec.user === users['reader-token']!.username && path === '/metrics' && verb === 'get' } } as T;
    },
    watch: () => Promise.reject(new Error('no watches here')),
  };
  return { transport, requests };
}

describe('MetricsAccessReviewer', () => {
  it('lets through a token the API server authenticates and allows; 401 without one or for an unknown one; 403 for a user not allowed', async () => {
    const api = reviewingApiServer();
    const reviewer = new MetricsAccessReviewer({ transport: api.transport, logger: silentLogger(), clock: new FakeClock() });
    const review = (authorization: string | undefined, path = '/metrics') => reviewer.review({ authorization, method: 'GET', path });
    expect(await review('Bearer reader-token')).toBeUndefined();
    expect(await review(undefined)).toMatchObject({ status: 401 });
    expect(await review('Basic dXNlcjpwYXNz')).toMatchObject({ status: 401 });
    expect(await review('Bearer stolen')).toMatchObject({ status: 401 });
    expect(await review('Bearer other-token')).toEqual({ status: 403, body: 'Authorization denied for user system:serviceaccount:default:nobody to get /metrics\n' });
    expect(await review('Bearer reader-token', '/debug/pprof')).toMatchObject({ status: 403 });
    // The access review names the user and the non-resource request, as controller-runtime's filter asks.
    expect(api.requests[1]).toMatchObject({
      method: 'POST', path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      body: { spec: { user: 'system:serviceaccount:monitoring:prometheus', groups: ['system:serviceaccounts'], nonResourceAttributes: { path: '/metrics', verb: 'get' } } },
    });
  });

  it('asks the API server once per token while its answers are fresh: a minute for the user, 5 minutes allowed, 30 s denied', async () => {
    const api = reviewingApiServer();
    const clock = new FakeClock();
    const reviewer = new MetricsAccessReviewer({ transport: api.transport, logger: silentLogger(), clock });
    const review = (token: string) => reviewer.review({ authorization: `Bearer ${token}`, method: 'GET', path: '/metrics' });
    for (let scrape = 0; scrape < 5; scrape++) await review('reader-token');
    await review('other-token');
    await review('other-token');
    expect(api.requests.map((r) => r.path.split('/').pop())).toEqual(['tokenreviews', 'subjectaccessreviews', 'tokenreviews', 'subjectaccessreviews']);
    await clock.advance(31_000);
    await review('other-token');
    await review('reader-token');
    // The denial expired (asked again, the user still fresh); the allowed answer did not.
    expect(api.requests.slice(4).map((r) => r.path.split('/').pop())).toEqual(['subjectaccessreviews']);
    await clock.advance(30_000);
    await review('reader-token');
    expect(api.requests.slice(5).map((r) => r.path.split('/').pop())).toEqual(['tokenreviews']);
  });

  it('answers 500 when the API server cannot review, logging no token, and caches nothing', async () => {
    const lines: string[] = [];
    const logger = { ...silentLogger(), error: (message: string, fields?: object) => lines.push(`${message} ${JSON.stringify(fields)}`) };
    const api = reviewingApiServer({ failWith: new Error('connection refused') });
    const reviewer = new MetricsAccessReviewer({ transport: api.transport, logger: logger as ReturnType<typeof silentLogger>, clock: new FakeClock() });
    expect(await reviewer.review({ authorization: 'Bearer reader-token', method: 'GET', path: '/metrics' })).toMatchObject({ status: 500 });
    expect(await reviewer.review({ authorization: 'Bearer reader-token', method: 'GET', path: '/metrics' })).toMatchObject({ status: 500 });
    expect(api.requests).toHaveLength(2);
    expect(lines.join('\n')).toContain('connection refused');
    expect(lines.join('\n')).not.toContain('reader-token');
  });

  it('guards an HTTPS server: the route runs only for an allowed token', async () => {
    const api = reviewingApiServer();
    const reviewer = new MetricsAccessReviewer({ transport: api.transport, logger: silentLogger(), clock: new FakeClock() });
    let served = 0;
    const server = await startHttpServer({
      name: 'metrics', bindAddress: { host: '127.0.0.1', port: 0 }, logger: silentLogger(),
      tls: selfSignedCertificate({ commonName: 'test-metrics', names: ['127.0.0.1'] }),
      guard: (request) => reviewer.review(request),
      routes: { '/metrics': async () => ({ status: 200, body: `served ${++served}\n` }) },
    });
    const get = (token?: string) => new Promise<{ status: number; body: string; peer: string }>((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port: server.address.port, path: '/metrics', rejectUnauthorized: false,
        headers: token ? { authorization: `Bearer ${token}` } : {}, agent: false }, (res) => {
        const peer = (res.socket as TLSSocket).getPeerCertificate().subject.CN as string;
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, peer }));
      });
      req.on('error', reject);
      req.end();
    });
    try {
      expect(await get()).toMatchObject({ status: 401, peer: 'test-metrics' });
      expect(await get('other-token')).toMatchObject({ status: 403 });
      expect(served).toBe(0);
      expect(await get('reader-token')).toEqual({ status: 200, body: 'served 1\n', peer: 'test-metrics' });
    } finally {
      await server.close();
    }
  });

  it('follows the manager\'s TLS policy (--tls-min-version): a TLS 1.2 client is refused by a TLS 1.3 server', async () => {
    const server = await startHttpServer({
      name: 'metrics', bindAddress: { host: '127.0.0.1', port: 0 }, logger: silentLogger(),
      tls: { ...selfSignedCertificate({ commonName: 'tls13', names: ['127.0.0.1'] }), policy: { minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3' } },
      routes: { '/metrics': async () => ({ status: 200, body: 'ok\n' }) },
    });
    const get = (maxVersion: 'TLSv1.2' | 'TLSv1.3') => new Promise<number | string>((resolve) => {
      const req = httpsRequest({ host: '127.0.0.1', port: server.address.port, path: '/metrics', rejectUnauthorized: false, agent: false, maxVersion },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      req.end();
    });
    try {
      expect(await get('TLSv1.3')).toBe(200);
      expect(await get('TLSv1.2')).toMatch(/^(EPROTO|ECONNRESET|ERR_SSL_.*)$/);
    } finally {
      await server.close();
    }
  });
});
