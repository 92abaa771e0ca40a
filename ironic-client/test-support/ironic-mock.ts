// nock helpers: an Ironic that answers version discovery, and a client connected to it.
import nock from 'nock';
import { Registry } from 'prom-client';
import { connectIronic } from '../src/client.ts';
import type { IronicClient } from '../src/client.ts';
import type { IronicClientOptions } from '../src/options.ts';
import { ENDPOINT, v1Root } from './fixtures.ts';

/** Tiny delays so retry tests finish at once. */
export const FAST_RETRY = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } as const;

export function mockDiscovery(maxVersion = '1.110'): nock.Scope {
  return nock(ENDPOINT).get('/v1').reply(200, v1Root(maxVersion), {
    'X-OpenStack-Ironic-API-Minimum-Version': '1.1',
    'X-OpenStack-Ironic-API-Maximum-Version': maxVersion,
  });
}

export interface TestClient {
  client: IronicClient;
  registry: Registry;
}

/** Connects a client after mocking GET /v1 with the given server maximum. */
export async function connectTestClient(
  options: Partial<IronicClientOptions> & { serverMax?: string } = {},
): Promise<TestClient> {
  const { serverMax, ...rest } = options;
  mockDiscovery(serverMax);
  const registry = rest.metricsRegistry ?? new Registry();
  const client = await connectIronic({ endpoint: ENDPOINT, retry: FAST_RETRY, metricsRegistry: registry, ...rest });
  return { client, registry };
}

/** nock scope that requires the microversion header the client negotiated. */
export function ironic(microversion = '1.110'): nock.Scope {
  return nock(ENDPOINT, { reqheaders: { 'X-OpenStack-Ironic-API-Version': microversion } });
}
