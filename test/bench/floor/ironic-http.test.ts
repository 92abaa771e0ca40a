import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createIronicHttp } from './ironic-http.ts';

/** Each answer is held this long, so every request is open at least this long. */
const HOLD_MS = 60;

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_request, response) => {
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'), HOLD_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the floor\'s Ironic client', () => {
  it('counts requests by route and sums the time each was open, so requests open together count each', async () => {
    const http = createIronicHttp({ url, maxInFlight: 3 });
    expect(http.openSeconds()).toEqual({});
    await Promise.all([1, 2, 3].map((index) => http.request({ method: 'GET', route: '/v1/nodes/{node_ident}', node: `node-${index}` })));
    expect(http.counts()).toEqual({ 'GET /v1/nodes/{node_ident}': 3 });
    // Three requests open side by side: about three holds, where the wall clock saw about one.
    expect(Object.keys(http.openSeconds())).toEqual(['GET /v1/nodes/{node_ident}']);
    expect(http.openSeconds()['GET /v1/nodes/{node_ident}']).toBeGreaterThanOrEqual((3 * HOLD_MS * 0.95) / 1000);
  });
});
