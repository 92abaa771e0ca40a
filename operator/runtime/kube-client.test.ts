import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, afterEach, beforeAll, afterAll } from '@jest/globals';
import { Registry } from 'prom-client';
import { KubeClient } from './kube-client.ts';
import { KubeConfig } from './kube-config.ts';
import type { RawWatchEvent } from './kube-client.ts';
import { isConflict, isGone, toKubeError } from './kube-errors.ts';
import { createResourceClient } from './resource-client.ts';
import { REST_CLIENT_REQUESTS_BY_RESOURCE_TOTAL, REST_CLIENT_REQUESTS_TOTAL, createRestClientMetrics } from './rest-client-metrics.ts';
import type { ResourceType } from './kube-object.ts';
import { FakeClock, flushPromises } from './testing/index.ts';

// A scripted HTTP server on loopback answers each expected request once, in any order; anything
// unexpected gets a 500 naming it. Every answer closes its connection, so no socket is reused.
interface Expected {
  method: string;
  path: string;
  /** Exact query; undefined accepts any. */
  query?: Record<string, string>;
  reply: { status: number; body?: unknown; headers?: Record<string, string> } | 'reset';
}

interface Received {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const expected: Expected[] = [];
const received: Received[] = [];
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const url = new URL(request.url ?? '/', 'http://x');
    const query = Object.fromEntries(url.searchParams);
    received.push({ method: request.method ?? '', path: url.pathname, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    const index = expected.findIndex((e) => e.method === request.method && e.path === url.pathname
      && (e.query === undefined || JSON.stringify(Object.entries(e.query).sort()) === JSON.stringify(Object.entries(query).sort())));
    if (index < 0) {
      response.writeHead(500, { connection: 'close' }).end(`unexpected ${request.method} ${request.url}`);
      return;
    }
    const [{ reply }] = expected.splice(index, 1) as [Expected];
    if (reply === 'reset') {
      request.socket.destroy();
      return;
    }
    const body = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    response.writeHead(reply.status, { connection: 'close', 'content-type': 'application/json', ...reply.headers }).end(body);
  });
});
let serverUrl = '';
let serverHost = '';

function expectRequest(request: Expected): void {
  expected.push(request);
}

const Toy: ResourceType = { group: 'example.com', version: 'v1', kind: 'Toy', plural: 'toys', namespaced: true };

function client(options: ConstructorParameters<typeof KubeClient>[1] = {}): KubeClient {
  const kubeConfig = new KubeConfig();
  kubeConfig.clusters = [{ name: 'c', server: serverUrl }];
  kubeConfig.users = [{ name: 'u', token: 'secret-token' }];
  kubeConfig.contexts = [{ name: 'x', cluster: 'c', user: 'u' }];
  kubeConfig.currentContext = 'x';
  return new KubeClient(kubeConfig, options);
}

async function requestCounts(registry: Registry): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric(REST_CLIENT_REQUESTS_TOTAL)?.get();
  return Object.fromEntries((metric?.values ?? []).map((v) => [`${v.labels.method} ${v.labels.code} ${v.labels.host}`, v.value]));
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverHost = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  serverUrl = `http://${serverHost}`;
});
afterEach(() => {
  expected.length = 0;
  received.length = 0;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('KubeClient', () => {
  it('holds requests past the burst until the bucket refills (--kube-api-qps, --kube-api-burst)', async () => {
    const clock = new FakeClock();
    const names = ['a', 'b', 'c', 'd'];
    for (const name of names) {
      expectRequest({
        method: 'GET', path: `/apis/example.com/v1/namespaces/ns/toys/${name}`,
        reply: { status: 200, body: { apiVersion: 'example.com/v1', kind: 'Toy', metadata: { name, namespace: 'ns' } } },
      });
    }
    const toys = createResourceClient(client({ rateLimit: { qps: 2, burst: 2, clock } }), Toy);
    const answered: string[] = [];
    const gets = names.map((name) => toys.get({ namespace: 'ns', name }).then(() => answered.push(name)));
    const answers = async (count: number) => {
      while (answered.length < count) await flushPromises(1);
    };
    await answers(2);
    // The burst went at once; the other two wait on the clock, which has not moved.
    expect(received.map((r) => r.path.split('/').pop()).sort()).toEqual(['a', 'b']);
    await clock.advance(499);
    expect(received).toHaveLength(2);
    await clock.advance(1);
    await answers(3);
    expect(received).toHaveLength(3);
    await clock.advance(500);
    await Promise.all(gets);
    expect(received.map((r) => r.path.split('/').pop()).sort()).toEqual(names);
  });

  it('sends patches with their own content type, auth and the field manager, and keeps unknown fields', async () => {
    expectRequest({
      method: 'PATCH', path: '/apis/example.com/v1/namespaces/ns/toys/t/status', query: { fieldManager: 'toy-controller' },
      reply: { status: 200, body: { apiVersion: 'example.com/v1', kind: 'Toy', metadata: { name: 't', creationTimestamp: '2026-01-01T00:00:00Z' }, status: { 'x-custom': true } } },
    });
    const toys = createResourceClient(client(), Toy, { fieldManager: 'toy-controller' });
    const result = await toys.patch({ namespace: 'ns', name: 't' }, { status: { 'x-custom': true } }, { type: 'merge', subresource: 'status' });
    expect(result.status).toEqual({ 'x-custom': true });
    expect(result.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(expected).toEqual([]);
    expect(received.map(({ headers, body }) => ({ authorization: headers.authorization, contentType: headers['content-type'], body: JSON.parse(body) })))
      .toEqual([{ authorization: 'Bearer secret-token', contentType: 'application/merge-patch+json', body: { status: { 'x-custom': true } } }]);
  });

  it('throws ApiException-shaped errors that toKubeError understands', async () => {
    expectRequest({
      method: 'PUT', path: '/apis/example.com/v1/namespaces/ns/toys/t',
      reply: { status: 409, body: { kind: 'Status', code: 409, reason: 'Conflict', message: 'the object has been modified' } },
    });
    const toys = createResourceClient(client(), Toy);
    const error = await toys.replace({ metadata: { name: 't', namespace: 'ns', resourceVersion: '1' } }).catch((e: unknown) => e);
    expect(isConflict(error)).toBe(true);
    expect(toKubeError(error).message).toBe('the object has been modified');
  });

  describe('an answer that asks the client to retry (429 or 5xx with Retry-After), as client-go', () => {
    const toyPath = '/apis/example.com/v1/namespaces/ns/toys/t';
    const cacheInitializing = (retryAfter?: string) => ({ status: 429, headers: retryAfter === undefined ? {} as Record<string, string> : { 'retry-after': retryAfter },
      body: { kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'storage is (re)initializing' } });
    const waitForRequests = async (count: number) => {
      while (received.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    /** The server has seen `count` requests and the client has read the last answer and set its wait. */
    const waitingAfter = async (clock: FakeClock, count: number) => {
      await waitForRequests(count);
      while (clock.pendingTimers === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    };

    it('is waited out on the clock and the request sent again, body and all; each attempt counted', async () => {
      const clock = new FakeClock();
      const registry = new Registry();
      expectRequest({ method: 'PATCH', path: toyPath, reply: cacheInitializing('2') });
      expectRequest({ method: 'PATCH', path: toyPath, reply: { status: 503, headers: { 'retry-after': '1' }, body: { kind: 'Status', code: 503 } } });
      expectRequest({ method: 'PATCH', path: toyPath, reply: { status: 200, body: { metadata: { name: 't' }, spec: { colour: 'red' } } } });
      const toys = createResourceClient(client({ clock, metrics: createRestClientMetrics(registry) }), Toy);
      let settled = false;
      const patched = toys.patch({ namespace: 'ns', name: 't' }, { spec: { colour: 'red' } }, { type: 'merge' }).finally(() => {
        settled = true;
      });
      await waitingAfter(clock, 1);
      await clock.advance(1_999);
      expect(received).toHaveLength(1);
      await clock.advance(1);
      await waitingAfter(clock, 2);
      await clock.advance(1_000);
      expect((await patched).spec).toEqual({ colour: 'red' });
      expect(settled).toBe(true);
      expect(received.map((r) => r.body)).toEqual(Array(3).fill(JSON.stringify({ spec: { colour: 'red' } })));
      expect(await requestCounts(registry)).toEqual({ [`PATCH 429 ${serverHost}`]: 1, [`PATCH 503 ${serverHost}`]: 1, [`PATCH 200 ${serverHost}`]: 1 });
    });

    it('without Retry-After, or after 10 retries, the error is the caller\'s', async () => {
      expectRequest({ method: 'GET', path: toyPath, reply: cacheInitializing() });
      const toys = createResourceClient(client(), Toy);
      expect(toKubeError(await toys.get({ namespace: 'ns', name: 't' }).catch((e: unknown) => e)).code).toBe(429);
      expect(received).toHaveLength(1);

      received.length = 0;
      for (let attempt = 0; attempt < 11; attempt++) expectRequest({ method: 'GET', path: toyPath, reply: cacheInitializing('0') });
      const error = toKubeError(await toys.get({ namespace: 'ns', name: 't' }).catch((e: unknown) => e));
      expect([error.code, error.message]).toEqual([429, 'storage is (re)initializing']);
      expect(received).toHaveLength(11);
    });

    it('a caller that gives up while waiting gets its abort, and nothing is sent again', async () => {
      const clock = new FakeClock();
      expectRequest({ method: 'GET', path: toyPath, reply: cacheInitializing('5') });
      const toys = createResourceClient(client({ clock }), Toy);
      const caller = new AbortController();
      const got = toys.get({ namespace: 'ns', name: 't' }, { signal: caller.signal }).catch((e: unknown) => e);
      await waitingAfter(clock, 1);
      caller.abort(new Error('reconcile cancelled'));
      expect(await got).toEqual(new Error('reconcile cancelled'));
      await clock.advance(5_000);
      expect(received).toHaveLength(1);
    });
  });

  it('streams watch events and turns an ERROR event into a rejection', async () => {
    const lines = [
      { type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '5' } } },
      { type: 'BOOKMARK', object: { metadata: { resourceVersion: '6' } } },
      { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' } },
    ];
    expectRequest({
      method: 'GET', path: '/apis/example.com/v1/namespaces/ns/toys', query: { watch: 'true', resourceVersion: '4', allowWatchBookmarks: 'true' },
      reply: { status: 200, body: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' },
    });
    const events: RawWatchEvent[] = [];
    const toys = createResourceClient(client(), Toy);
    const error = await toys
      .watch({ namespace: 'ns', resourceVersion: '4', allowWatchBookmarks: true, signal: new AbortController().signal }, (e) =>
        events.push(e),
      )
      .catch((e: unknown) => e);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(isGone(error)).toBe(true);
  });

  it('resolves when the server ends the watch cleanly', async () => {
    expectRequest({
      method: 'GET', path: '/apis/example.com/v1/namespaces/ns/toys',
      reply: { status: 200, body: JSON.stringify({ type: 'MODIFIED', object: { metadata: { name: 'a' } } }) + '\n' },
    });
    const events: RawWatchEvent[] = [];
    await createResourceClient(client(), Toy).watch({ namespace: 'ns', signal: new AbortController().signal }, (e) => events.push(e));
    expect(events).toHaveLength(1);
  });

  it('counts every request like client-go\'s rest_client_requests_total, watches as GET', async () => {
    const registry = new Registry();
    const kube = client({ metrics: createRestClientMetrics(registry) });
    const toys = createResourceClient(kube, Toy);
    expectRequest({ method: 'GET', path: '/apis/example.com/v1/namespaces/ns/toys/a', reply: { status: 200, body: { metadata: { name: 'a' } } } });
    expectRequest({ method: 'GET', path: '/apis/example.com/v1/namespaces/ns/toys/b', reply: { status: 404, body: { kind: 'Status', code: 404, reason: 'NotFound' } } });
    expectRequest({ method: 'DELETE', path: '/apis/example.com/v1/namespaces/ns/toys/a', reply: 'reset' });
    expectRequest({ method: 'GET', path: '/apis/example.com/v1/namespaces/ns/toys', reply: { status: 200 } });
    expectRequest({ method: 'GET', path: '/apis/example.com/v1/namespaces/ns/toys', reply: { status: 403, body: { kind: 'Status', code: 403 } } });
    await toys.get({ namespace: 'ns', name: 'a' });
    await toys.get({ namespace: 'ns', name: 'b' }).catch(() => undefined);
    await toys.delete({ namespace: 'ns', name: 'a' }).catch(() => undefined);
    await toys.watch({ namespace: 'ns', signal: new AbortController().signal }, () => undefined);
    await toys.watch({ namespace: 'ns', signal: new AbortController().signal }, () => undefined).catch(() => undefined);
    expect(await requestCounts(registry)).toEqual({
      [`GET 200 ${serverHost}`]: 2,
      [`GET 404 ${serverHost}`]: 1,
      [`DELETE <error> ${serverHost}`]: 1,
      [`GET 403 ${serverHost}`]: 1,
    });
    const byResource = await registry.getSingleMetric(REST_CLIENT_REQUESTS_BY_RESOURCE_TOTAL)?.get();
    expect(Object.fromEntries((byResource?.values ?? []).map((v) => [`${v.labels.verb} ${v.labels.group} ${v.labels.resource}`, v.value]))).toEqual({
      'get example.com toys': 2,
      'delete example.com toys': 1,
      'watch example.com toys': 2,
    });
  });
});
