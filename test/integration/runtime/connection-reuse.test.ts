import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { DEFAULT_MAX_REQUEST_CONNECTIONS, KubeClient, NamespaceResource, REST_CLIENT_CONNECTIONS_OPENED_TOTAL, createResourceClient, createRestClientMetrics, loadKubeConfig } from '../../../operator/runtime/index.ts';
import type { RawWatchEvent } from '../../../operator/runtime/index.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';

// Every TCP connection to the real API server goes through a loopback proxy that counts them:
// each is one TLS handshake. The runtime's client must keep connections alive across requests
// and keep a quiet watch open instead of reconnecting after client-node's 30 s of silence.
const env = readStackEnv();
const kubectl = new Kubectl(env);

interface CountingProxy { server: Server; url: string; opened: () => number }

async function countingProxy(target: URL): Promise<CountingProxy> {
  let opened = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    opened++;
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  server.on('close', () => sockets.forEach((socket) => socket.destroy()));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  return { server, url: `https://127.0.0.1:${address.port}`, opened: () => opened };
}

let proxy: CountingProxy;
let client: KubeClient;
let namespace = '';
const registry = new Registry();

/** What the client's own connections-opened counter (a benchmark report row) says. */
async function countedByClient(): Promise<number> {
  const metric = await registry.getSingleMetric(REST_CLIENT_CONNECTIONS_OPENED_TOTAL)?.get();
  return (metric?.values ?? []).reduce((sum, sample) => sum + sample.value, 0);
}

beforeAll(async () => {
  const kubeConfig = loadKubeConfig(env.kubeconfig);
  proxy = await countingProxy(new URL(kubeConfig.getCurrentCluster()!.server));
  kubeConfig.clusters = kubeConfig.clusters.map((cluster) => ({ ...cluster, server: proxy.url }));
  client = new KubeClient(kubeConfig, { metrics: createRestClientMetrics(registry) });
  namespace = await createUniqueNamespace(kubectl, 'connection-reuse');
});

afterAll(async () => {
  proxy?.server.close();
  if (namespace) await deleteNamespace(kubectl, namespace);
  kubectl.dispose();
});

describe('Kubernetes connections are kept alive', () => {
  it('serves 100 requests one after another over one TLS connection, 10 at a time over at most 10, and 60 at a time over at most the cap', async () => {
    const namespaces = createResourceClient(client, NamespaceResource);
    const before = proxy.opened();
    for (let i = 0; i < 100; i++) await namespaces.get({ name: namespace });
    expect(proxy.opened() - before).toBe(1);
    for (let round = 0; round < 10; round++) {
      await Promise.all(Array.from({ length: 10 }, () => namespaces.get({ name: namespace })));
    }
    expect(proxy.opened() - before).toBeLessThanOrEqual(10);
    // A burst (Events queued by many reconciles at once) waits for a connection instead of opening one each.
    await Promise.all(Array.from({ length: 60 }, () => namespaces.get({ name: namespace })));
    expect(proxy.opened() - before).toBeGreaterThan(1);
    expect(proxy.opened() - before).toBeLessThanOrEqual(DEFAULT_MAX_REQUEST_CONNECTIONS);
    // The client's counter sees exactly the connections the proxy saw.
    expect(await countedByClient()).toBe(proxy.opened());
  });

  it('keeps a watch with a server-side timeout open through 40 s of silence, then delivers the next event on it', async () => {
    await kubectl.ok(['create', 'configmap', 'before-silence', '-n', namespace]);
    const events: RawWatchEvent[] = [];
    const stop = new AbortController();
    let ended = false;
    const watching = client.watch({
      path: `/api/v1/namespaces/${namespace}/configmaps`,
      query: { watch: true, allowWatchBookmarks: true, timeoutSeconds: 300, resourceVersion: '0' },
      signal: stop.signal,
    }, (event) => events.push(event)).finally(() => (ended = true));
    try {
      // From resourceVersion 0 the watch starts with the existing ConfigMap.
      await waitFor(async () => (events.some((event) => event.type === 'ADDED') ? true : undefined), { timeoutMs: 30_000, what: 'the initial event' });
      const opened = proxy.opened();
      const seen = events.length;
      // Longer than client-node's 30 s inactivity timeout, with nothing happening in the namespace.
      await new Promise((resolve) => setTimeout(resolve, 40_000));
      await kubectl.ok(['create', 'configmap', 'after-silence', '-n', namespace]);
      const arrived = await waitFor(async () => events.slice(seen).find((event) =>
        (event.object as { metadata?: { name?: string } }).metadata?.name === 'after-silence'), { timeoutMs: 30_000, what: 'the event after 40 s of silence' });
      expect(arrived.type).toBe('ADDED');
      expect(ended).toBe(false);
      // No reconnect: the watch and the kubectl above are the only traffic, and kubectl does not use this proxy.
      expect(proxy.opened()).toBe(opened);
    } finally {
      stop.abort();
      await watching;
    }
  }, 120_000);
});
