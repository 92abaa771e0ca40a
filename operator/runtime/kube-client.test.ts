import { describe, it, expect, afterEach, beforeAll, afterAll } from '@jest/globals';
import nock from 'nock';
import { Registry } from 'prom-client';
import { KubeClient } from './kube-client.ts';
import { KubeConfig } from './kube-config.ts';
import type { RawWatchEvent } from './kube-client.ts';
import { isConflict, isGone, toKubeError } from './kube-errors.ts';
import { createResourceClient } from './resource-client.ts';
import { REST_CLIENT_REQUESTS_BY_RESOURCE_TOTAL, REST_CLIENT_REQUESTS_TOTAL, createRestClientMetrics } from './rest-client-metrics.ts';
import type { ResourceType } from './kube-object.ts';

// nock intercepts node:http(s): nothing leaves the process.
const SERVER = 'https://kube.test:6443';
const Toy: ResourceType = { group: 'example.com', version: 'v1', kind: 'Toy', plural: 'toys', namespaced: true };

function client(options: ConstructorParameters<typeof KubeClient>[1] = {}): KubeClient {
  const kubeConfig = new KubeConfig();
  kubeConfig.clusters = [{ name: 'c', server: SERVER, skipTLSVerify: true }];
  kubeConfig.users = [{ name: 'u', token: 'secret-token' }];
  kubeConfig.contexts = [{ name: 'x', cluster: 'c', user: 'u' }];
  kubeConfig.currentContext = 'x';
  return new KubeClient(kubeConfig, options);
}

async function requestCounts(registry: Registry): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric(REST_CLIENT_REQUESTS_TOTAL)?.get();
  return Object.fromEntries((metric?.values ?? []).map((v) => [`${v.labels.method} ${v.labels.code} ${v.labels.host}`, v.value]));
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});

describe('KubeClient', () => {
  it('sends patches with their own content type, auth and the field manager, and keeps unknown fields', async () => {
    const scope = nock(SERVER, { reqheaders: { authorization: 'Bearer secret-token', 'content-type': 'application/merge-patch+json' } })
      .patch('/apis/example.com/v1/namespaces/ns/toys/t/status', { status: { 'x-custom': true } })
      .query({ fieldManager: 'toy-controller' })
      .reply(200, { apiVersion: 'example.com/v1', kind: 'Toy', metadata: { name: 't', creationTimestamp: '2026-01-01T00:00:00Z' }, status: { 'x-custom': true } });
    const toys = createResourceClient(client(), Toy, { fieldManager: 'toy-controller' });
    const result = await toys.patch({ namespace: 'ns', name: 't' }, { status: { 'x-custom': true } }, { type: 'merge', subresource: 'status' });
    expect(result.status).toEqual({ 'x-custom': true });
    expect(result.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    scope.done();
  });

  it('throws ApiException-shaped errors that toKubeError understands', async () => {
    nock(SERVER)
      .put('/apis/example.com/v1/namespaces/ns/toys/t')
      .reply(409, { kind: 'Status', code: 409, reason: 'Conflict', message: 'the object has been modified' });
    const toys = createResourceClient(client(), Toy);
    const error = await toys.replace({ metadata: { name: 't', namespace: 'ns', resourceVersion: '1' } }).catch((e: unknown) => e);
    expect(isConflict(error)).toBe(true);
    expect(toKubeError(error).message).toBe('the object has been modified');
  });

  it('streams watch events and turns an ERROR event into a rejection', async () => {
    const lines = [
      { type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '5' } } },
      { type: 'BOOKMARK', object: { metadata: { resourceVersion: '6' } } },
      { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' } },
    ];
    nock(SERVER)
      .get('/apis/example.com/v1/namespaces/ns/toys')
      .query({ watch: 'true', resourceVersion: '4', allowWatchBookmarks: 'true' })
      .reply(200, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
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
    nock(SERVER)
      .get('/apis/example.com/v1/namespaces/ns/toys')
      .query(true)
      .reply(200, JSON.stringify({ type: 'MODIFIED', object: { metadata: { name: 'a' } } }) + '\n');
    const events: RawWatchEvent[] = [];
    await createResourceClient(client(), Toy).watch({ namespace: 'ns', signal: new AbortController().signal }, (e) => events.push(e));
    expect(events).toHaveLength(1);
  });

  it('counts every request like client-go\'s rest_client_requests_total, watches as GET', async () => {
    const registry = new Registry();
    const kube = client({ metrics: createRestClientMetrics(registry) });
    const toys = createResourceClient(kube, Toy);
    nock(SERVER).get('/apis/example.com/v1/namespaces/ns/toys/a').reply(200, { metadata: { name: 'a' } });
    nock(SERVER).get('/apis/example.com/v1/namespaces/ns/toys/b').reply(404, { kind: 'Status', code: 404, reason: 'NotFound' });
    nock(SERVER).delete('/apis/example.com/v1/namespaces/ns/toys/a').replyWithError('connection reset');
    nock(SERVER).get('/apis/example.com/v1/namespaces/ns/toys').query(true).reply(200, '');
    nock(SERVER).get('/apis/example.com/v1/namespaces/ns/toys').query(true).reply(403, { kind: 'Status', code: 403 });
    await toys.get({ namespace: 'ns', name: 'a' });
    await toys.get({ namespace: 'ns', name: 'b' }).catch(() => undefined);
    await toys.delete({ namespace: 'ns', name: 'a' }).catch(() => undefined);
    await toys.watch({ namespace: 'ns', signal: new AbortController().signal }, () => undefined);
    await toys.watch({ namespace: 'ns', signal: new AbortController().signal }, () => undefined).catch(() => undefined);
    expect(await requestCounts(registry)).toEqual({
      'GET 200 kube.test:6443': 2,
      'GET 404 kube.test:6443': 1,
      'DELETE <error> kube.test:6443': 1,
      'GET 403 kube.test:6443': 1,
    });
    const byResource = await registry.getSingleMetric(REST_CLIENT_REQUESTS_BY_RESOURCE_TOTAL)?.get();
    expect(Object.fromEntries((byResource?.values ?? []).map((v) => [`${v.labels.verb} ${v.labels.group} ${v.labels.resource}`, v.value]))).toEqual({
      'get example.com toys': 2,
      'delete example.com toys': 1,
      'watch example.com toys': 2,
    });
  });
});
