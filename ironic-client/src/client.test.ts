import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent as HttpsAgent } from 'node:https';
import { inspect } from 'node:util';
import nock from 'nock';
import { Registry } from 'prom-client';
import type { Histogram } from 'prom-client';
import { connectIronic } from './client.ts';
import {
  IronicConflictError,
  IronicConnectionError,
  IronicServiceUnavailableError,
  IronicVersionUnsupportedError,
} from './errors.ts';
import { ENDPOINT, ironicError, lockedError, makeNode, NODE_UUID, v1Root } from '../test-support/fixtures.ts';
import { connectTestClient, FAST_RETRY, ironic, mockDiscovery } from '../test-support/ironic-mock.ts';

const VERSION_HEADER = 'x-openstack-ironic-api-version';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
});
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});

async function counterValue(registry: Registry, labels: Record<string, string>): Promise<number> {
  const metric = await registry.getSingleMetric('ironic_client_requests_total')?.get();
  const match = metric?.values.find((value) => Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted));
  return match?.value ?? 0;
}

describe('microversion negotiation', () => {
  it.each([
    ['1.115', '1.110'],
    ['1.109', '1.109'],
    ['1.101', '1.95'],
    ['1.93', '1.93'],
    ['1.90', '1.89'],
  ])('picks the highest supported version for a server max of %s', async (serverMax, expected) => {
    const { client } = await connectTestClient({ serverMax });
    expect(client.microversion).toBe(expected);
    expect(client.serverVersionRange).toEqual({ min: '1.1', max: serverMax });
  });

  it('refuses a server whose maximum is below 1.89 with a clear error', async () => {
    mockDiscovery('1.82');
    const failure = connectIronic({ endpoint: ENDPOINT, retry: FAST_RETRY });
    await expect(failure).rejects.toBeInstanceOf(IronicVersionUnsupportedError);
    mockDiscovery('1.82');
    await expect(connectIronic({ endpoint: ENDPOINT })).rejects.toThrow(
      `Ironic API 1.89 or newer is required; ${ENDPOINT} supports 1.1 to 1.82`,
    );
  });

  it('sends discovery without a version header, then the chosen version on every request', async () => {
    const discovery = nock(ENDPOINT, { badheaders: [VERSION_HEADER] }).get('/v1').reply(200, v1Root('1.96'));
    const client = await connectIronic({ endpoint: `${ENDPOINT}/v1/`, retry: FAST_RETRY });
    discovery.done();
    const scope = ironic('1.95')
      .get(`/v1/nodes/${NODE_UUID}`)
      .reply(200, makeNode())
      .put(`/v1/nodes/${NODE_UUID}/states/power`)
      .reply(202)
      .get('/v1/drivers')
      .reply(200, { drivers: [] });
    await client.nodes.get(NODE_UUID);
    await client.nodes.setPowerState(NODE_UUID, { target: 'power on' });
    await client.drivers.list();
    scope.done();
  });

  it('reads the range from response headers when the body has no version', async () => {
    nock(ENDPOINT)
      .get('/v1')
      .reply(200, { id: 'v1' }, { 'X-OpenStack-Ironic-API-Minimum-Version': '1.1', 'X-OpenStack-Ironic-API-Maximum-Version': '1.93' });
    const client = await connectIronic({ endpoint: ENDPOINT });
    expect(client.microversion).toBe('1.93');
  });

  it('falls back to GET / when /v1 tells nothing', async () => {
    nock(ENDPOINT)
      .get('/v1')
      .reply(200, { id: 'v1' })
      .get('/')
      .reply(200, { default_version: { id: 'v1', min_version: '1.1', version: '1.109', status: 'CURRENT' }, versions: [] });
    const client = await connectIronic({ endpoint: ENDPOINT });
    expect(client.microversion).toBe('1.109');
  });

  it('exposes the feature map of the negotiated version', async () => {
    const { client } = await connectTestClient({ serverMax: '1.95' });
    expect(client.features).toEqual({
      virtualMediaAttach: true,
      virtualMediaGet: true,
      disablePowerOff: true,
      nodeHealth: false,
      deployWaitAbort: false,
    });
  });
});

describe('authentication', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ironic-auth-'));
    await writeFile(join(dir, 'username'), 'ironic-user\n');
    await writeFile(join(dir, 'password'), 's3cr3t-from-file\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  it('sends no Authorization header without auth', async () => {
    nock(ENDPOINT, { badheaders: ['authorization'] }).get('/v1').reply(200, v1Root('1.110'));
    const client = await connectIronic({ endpoint: ENDPOINT });
    const scope = nock(ENDPOINT, { badheaders: ['authorization'] }).get('/v1/drivers').reply(200, { drivers: [] });
    await client.drivers.list();
    scope.done();
  });

  it('sends HTTP basic credentials given directly, on discovery and on calls', async () => {
    const header = basic('admin', 'pa:ss');
    nock(ENDPOINT, { reqheaders: { authorization: header } }).get('/v1').reply(200, v1Root('1.110'));
    const client = await connectIronic({ endpoint: ENDPOINT, auth: { type: 'http_basic', username: 'admin', password: 'pa:ss' } });
    const scope = nock(ENDPOINT, { reqheaders: { authorization: header } }).get('/v1/drivers').reply(200, { drivers: [] });
    await client.drivers.list();
    scope.done();
  });

  it('reads username and password files from a directory, as BMO does', async () => {
    const header = basic('ironic-user', 's3cr3t-from-file');
    nock(ENDPOINT, { reqheaders: { authorization: header } }).get('/v1').reply(200, v1Root('1.110'));
    const client = await connectIronic({ endpoint: ENDPOINT, auth: { type: 'http_basic', credentialsDir: dir } });
    const scope = nock(ENDPOINT, { reqheaders: { authorization: header } })
      .delete(`/v1/nodes/${NODE_UUID}`)
      .reply(204);
    await client.nodes.delete(NODE_UUID);
    scope.done();
  });

  it('reads rotated credential files again after the refresh interval (BMO\'s IRONIC_CLIENT_CACHE_TTL), not before', async () => {
    const rotating = await mkdtemp(join(tmpdir(), 'ironic-rotate-'));
    await writeFile(join(rotating, 'username'), 'ironic-user\n');
    await writeFile(join(rotating, 'password'), 'old-password\n');
    let now = 1_000_000;
    const oldHeader = basic('ironic-user', 'old-password');
    nock(ENDPOINT, { reqheaders: { authorization: oldHeader } }).get('/v1').reply(200, v1Root('1.110'));
    const client = await connectIronic({ endpoint: ENDPOINT, auth: { type: 'http_basic', credentialsDir: rotating }, refreshIntervalMs: 5_000, now: () => now });
    // The Secret is rotated; within the interval the old credentials still go out.
    await writeFile(join(rotating, 'password'), 'new-password\n');
    now += 4_999;
    const before = nock(ENDPOINT, { reqheaders: { authorization: oldHeader } }).get('/v1/drivers').reply(200, { drivers: [] });
    await client.drivers.list();
    before.done();
    now += 1;
    const after = nock(ENDPOINT, { reqheaders: { authorization: basic('ironic-user', 'new-password') } }).get('/v1/drivers').reply(200, { drivers: [] });
    await client.drivers.list();
    after.done();
    // A file caught mid-swap (missing) keeps the last good credentials.
    await rm(join(rotating, 'password'));
    now += 5_000;
    const during = nock(ENDPOINT, { reqheaders: { authorization: basic('ironic-user', 'new-password') } }).get('/v1/drivers').reply(200, { drivers: [] });
    await client.drivers.list();
    during.done();
    client.close();
    await rm(rotating, { recursive: true, force: true });
  });

  it('keeps the password and Authorization header out of errors', async () => {
    const password = 'do-not-leak-me';
    nock(ENDPOINT).get('/v1').reply(200, v1Root('1.110'));
    const client = await connectIronic({ endpoint: ENDPOINT, auth: { type: 'http_basic', username: 'admin', password } });
    nock(ENDPOINT).get(`/v1/nodes/${NODE_UUID}`).reply(404, ironicError(`Node ${NODE_UUID} could not be found.`));
    const error = await client.nodes.get(NODE_UUID).catch((caught: unknown) => caught);
    const encoded = Buffer.from(`admin:${password}`).toString('base64');
    for (const text of [String(error), JSON.stringify(error), inspect(error, { depth: 10, showHidden: true })]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(encoded);
      expect(text.toLowerCase()).not.toContain('authorization');
    }
    expect(inspect(client, { depth: 10 })).not.toContain(encoded);
  });

  it('refuses credentials embedded in the endpoint URL', async () => {
    await expect(connectIronic({ endpoint: 'http://admin:pw@ironic.test:6385' })).rejects.toThrow(/not in the endpoint URL/);
  });
});

describe('retries', () => {
  it('retries a NodeLocked 409 and succeeds', async () => {
    const { client, registry } = await connectTestClient();
    const scope = ironic()
      .put(`/v1/nodes/${NODE_UUID}/states/provision`)
      .twice()
      .reply(409, lockedError())
      .put(`/v1/nodes/${NODE_UUID}/states/provision`)
      .reply(202);
    await client.nodes.setProvisionState(NODE_UUID, { target: 'manage' });
    scope.done();
    const route = '/v1/nodes/{node_ident}/states/provision';
    expect(await counterValue(registry, { route, code: '409' })).toBe(2);
    expect(await counterValue(registry, { route, code: '202' })).toBe(1);
  });

  it('gives up on a lock after maxAttempts with a transient conflict', async () => {
    const { client } = await connectTestClient();
    const scope = ironic().patch(`/v1/nodes/${NODE_UUID}`).times(3).reply(409, lockedError());
    const error = await client.nodes.update(NODE_UUID, [{ op: 'replace', path: '/name', value: 'x' }]).catch((caught: unknown) => caught);
    scope.done();
    expect(error).toBeInstanceOf(IronicConflictError);
    const conflict = error as IronicConflictError;
    expect(conflict.locked).toBe(true);
    expect(conflict.transient).toBe(true);
    expect(conflict.attempts).toBe(3);
    expect(conflict.message).toContain('gave up after 3 attempts');
  });

  it('retries 503 and gives up after the configured attempts', async () => {
    const { client } = await connectTestClient({ retry: { maxAttempts: 2, baseDelayMs: 1 } });
    const busy = ironicError('Requested action cannot be performed due to lack of free conductor workers.', 'Server');
    const scope = ironic().post('/v1/nodes').twice().reply(503, busy);
    const error = await client.nodes.create({ driver: 'fake-hardware' }).catch((caught: unknown) => caught);
    scope.done();
    expect(error).toBeInstanceOf(IronicServiceUnavailableError);
    expect((error as IronicServiceUnavailableError).faultstring).toMatch(/free conductor workers/);
  });

  it('recovers from a 503 on the next attempt', async () => {
    const { client } = await connectTestClient();
    const scope = ironic().get('/v1/drivers').reply(503, ironicError('busy', 'Server')).get('/v1/drivers').reply(200, { drivers: [] });
    await expect(client.drivers.list()).resolves.toEqual([]);
    scope.done();
  });

  it.each([
    ['duplicate name', 'A node with name metal3~worker-0 already exists.'],
    ['invalid state', `Can not delete node ${NODE_UUID} while it is in provision state "active".`],
    ['mid-transition update', `Node ${NODE_UUID} can not be updated while a state transition is in progress.`],
  ])('returns a permanent 409 (%s) at once', async (_case, faultstring) => {
    const { client, registry } = await connectTestClient();
    const scope = ironic().post('/v1/nodes').reply(409, ironicError(faultstring));
    const error = await client.nodes.create({ driver: 'redfish', name: 'metal3~worker-0' }).catch((caught: unknown) => caught);
    scope.done();
    expect(error).toBeInstanceOf(IronicConflictError);
    expect((error as IronicConflictError).locked).toBe(false);
    expect((error as IronicConflictError).transient).toBe(false);
    expect((error as IronicConflictError).attempts).toBe(1);
    expect(await counterValue(registry, { route: '/v1/nodes', method: 'POST' })).toBe(1);
  });

  it('retries a refused connection, then reports a connection error', async () => {
    const { client, registry } = await connectTestClient();
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const scope = ironic().get(`/v1/nodes/${NODE_UUID}/states`).times(3).replyWithError(refused);
    const error = await client.nodes.getStates(NODE_UUID).catch((caught: unknown) => caught);
    scope.done();
    expect(error).toBeInstanceOf(IronicConnectionError);
    expect((error as IronicConnectionError).code).toBe('ECONNREFUSED');
    expect((error as IronicConnectionError).attempts).toBe(3);
    expect(await counterValue(registry, { route: '/v1/nodes/{node_ident}/states', code: 'connection_error' })).toBe(3);
  });

  it('does not repeat a POST whose connection was reset mid-request', async () => {
    const { client } = await connectTestClient();
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const scope = ironic().post('/v1/ports').replyWithError(reset);
    const error = await client.ports.create({ address: '52:54:00:00:00:01', node_uuid: NODE_UUID }).catch((caught: unknown) => caught);
    scope.done();
    expect(error).toBeInstanceOf(IronicConnectionError);
    expect((error as IronicConnectionError).attempts).toBe(1);
  });
});

describe('metrics', () => {
  it('counts requests and observes latency by route template on the given registry', async () => {
    const registry = new Registry();
    const { client } = await connectTestClient({ metricsRegistry: registry });
    const scope = ironic()
      .get(`/v1/nodes/${NODE_UUID}`)
      .reply(200, makeNode())
      .get('/v1/nodes/other-node')
      .reply(200, makeNode({ name: 'other-node' }))
      .get('/v1/nodes/missing')
      .reply(404, ironicError('Node missing could not be found.'));
    await client.nodes.get(NODE_UUID);
    await client.nodes.get('other-node');
    await expect(client.nodes.get('missing')).rejects.toThrow(/could not be found/);
    scope.done();

    const route = '/v1/nodes/{node_ident}';
    expect(await counterValue(registry, { method: 'GET', route, code: '200' })).toBe(2);
    expect(await counterValue(registry, { method: 'GET', route, code: '404' })).toBe(1);
    expect(await counterValue(registry, { method: 'GET', route: '/v1', code: '200' })).toBe(1);

    const histogram = await (registry.getSingleMetric('ironic_client_request_duration_seconds') as Histogram | undefined)?.get();
    const count = histogram?.values.find((value) => value.metricName === 'ironic_client_request_duration_seconds_count' && value.labels.route === route);
    expect(count?.value).toBe(3);
    expect(await registry.metrics()).not.toContain(NODE_UUID);
  });

  it('lets two clients share one registry', async () => {
    const registry = new Registry();
    const first = await connectTestClient({ metricsRegistry: registry });
    const second = await connectTestClient({ metricsRegistry: registry });
    const scope = ironic().get('/v1/drivers').twice().reply(200, { drivers: [] });
    await first.client.drivers.list();
    await second.client.drivers.list();
    scope.done();
    expect(await counterValue(registry, { route: '/v1/drivers' })).toBe(2);
    expect(await counterValue(registry, { route: '/v1' })).toBe(2);
  });
});

describe('connection pool', () => {
  it('closes keep-alive connections on close() and after a refused negotiation', async () => {
    const destroy = jest.spyOn(HttpsAgent.prototype, 'destroy');
    try {
      const { client } = await connectTestClient();
      client.close();
      expect(destroy).toHaveBeenCalledTimes(1);
      mockDiscovery('1.80');
      await expect(connectIronic({ endpoint: ENDPOINT })).rejects.toBeInstanceOf(IronicVersionUnsupportedError);
      expect(destroy).toHaveBeenCalledTimes(2);
    } finally {
      destroy.mockRestore();
    }
  });
});

describe('the write guard (beforeWrite)', () => {
  it('lets reads through and refuses every attempt at a change unsent, retries included', async () => {
    let allowed = true;
    const refused: string[] = [];
    const { client } = await connectTestClient({
      beforeWrite: (request) => {
        if (!allowed) {
          refused.push(`${request.method} ${request.route}`);
          throw new Error('not the leader');
        }
      },
    });
    // The first attempt goes out and meets a 503; the guard shuts before the retry.
    const scope = ironic()
      .get(`/v1/nodes/${NODE_UUID}`).reply(200, makeNode())
      .put(`/v1/nodes/${NODE_UUID}/maintenance`).reply(() => {
        allowed = false;
        return [503, ironicError('try again')];
      })
      .get(`/v1/nodes/${NODE_UUID}`).reply(200, makeNode());
    await client.nodes.get(NODE_UUID);
    await expect(client.nodes.setMaintenance(NODE_UUID, { reason: 'x' })).rejects.toThrow('not the leader');
    // Reads still go out with the guard shut.
    await client.nodes.get(NODE_UUID);
    scope.done();
    expect(refused).toEqual(['PUT /v1/nodes/{node_ident}/maintenance']);
  });
});
