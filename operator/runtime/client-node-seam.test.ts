import { describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { shareDispatcher, watchWithInactivityTimeout } from './client-node-seam.ts';

// The seam reaches into client-node internals; these tests fail first if an upgrade moves them.
// That connections really are reused is proven against the API server in
// test/integration/runtime/connection-reuse.test.ts.
function kubeConfigFor(server: string, caData: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server, caData }],
    users: [{ name: 'u', token: 'secret-token' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kubeConfig;
}

type Factory = { createDispatcher(cluster: unknown, options: Record<string, unknown>): unknown };

describe('shareDispatcher', () => {
  it('hands out one dispatcher per TLS setup, and is idempotent', () => {
    const kubeConfig = shareDispatcher(shareDispatcher(kubeConfigFor('https://127.0.0.1:6443', Buffer.from('ca-1').toString('base64'))));
    const factory = kubeConfig as unknown as Factory;
    const cluster = kubeConfig.getCurrentCluster();
    const first = factory.createDispatcher(cluster, { ca: Buffer.from('ca-1') });
    expect(first).toBeDefined();
    expect(factory.createDispatcher(cluster, { ca: Buffer.from('ca-1') })).toBe(first);
    expect(factory.createDispatcher(cluster, { ca: Buffer.from('ca-2') })).not.toBe(first);
    expect(factory.createDispatcher({ ...cluster, server: 'https://127.0.0.1:7443' }, { ca: Buffer.from('ca-1') })).not.toBe(first);
  });
});

describe('watchWithInactivityTimeout', () => {
  it('raises the silence a watch tolerates, never lowers it below client-node\'s', () => {
    const kubeConfig = kubeConfigFor('https://127.0.0.1:6443', Buffer.from('ca').toString('base64'));
    const timeoutOf = (ms: number) => (watchWithInactivityTimeout(kubeConfig, ms) as unknown as { requestTimeoutMs: number }).requestTimeoutMs;
    expect(timeoutOf(330_000)).toBe(330_000);
    expect(timeoutOf(0)).toBe(30_000);
  });
});
