import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { restartEtcd } from '../../support/stack-control.ts';
import { waitFor } from '../../support/wait-for.ts';
import { LeaseResource, createResourceClient, keyOf, patchStatus } from '../../../operator/runtime/index.ts';
import type { KubeClient, Lease, Manager, ResourceClient } from '../../../operator/runtime/index.ts';
import { Toy, createNamespace, installToyCrd, stackTransport, testManager } from './toy-cluster.ts';
import type { ToyObject } from './toy-cluster.ts';

// etcd, under the API server, restarts (same port, same data) while a leader-elected manager
// runs: its watches and its Lease renewals fail meanwhile. controller.test.ts restarts the API
// server itself; this is the storage under it. Stops a stack component: runs alone
// (test/support/exclusive-files.ts).
jest.setTimeout(180_000);

describe('a leader-elected manager across an etcd restart', () => {
  let base: KubeClient;
  let namespace: string;
  let manager: Manager;
  let toys: ResourceClient<ToyObject>;
  const leaseId = `etcd-restart-${randomUUID().slice(0, 6)}`;
  const stop = new AbortController();
  let running: Promise<unknown>;
  const reconciled: string[] = [];

  beforeAll(async () => {
    ({ transport: base } = stackTransport());
    await installToyCrd(base);
    namespace = await createNamespace(base, 'rt-etcd');
    // A Lease long enough to ride out the restart: leadership should be kept, not lost.
    manager = testManager({ transport: base, identity: 'etcd-restart-leader', argv: [
      '--leader-elect', `--leader-election-id=${leaseId}`, `--leader-election-namespace=${namespace}`,
      '--leader-elect-lease-duration=60s', '--leader-elect-renew-deadline=45s', '--leader-elect-retry-period=1s', `--watch-namespace=${namespace}`,
    ] });
    toys = manager.client<ToyObject>(Toy);
    manager.controller('toy').for(Toy).complete(async (request, { signal }) => {
      reconciled.push(keyOf(request));
      const toy = await toys.get(request, { signal });
      await patchStatus(toys, toy, { observedValue: toy.spec?.value, observedGeneration: toy.metadata.generation }, { signal });
    });
    running = manager.start(stop.signal).catch((error: unknown) => error);
  });

  afterAll(async () => {
    stop.abort();
    await running;
  });

  const lease = () => createResourceClient<Lease>(base, LeaseResource).get({ namespace, name: leaseId });
  const observed = (name: string, value: number) => waitFor(async () => {
    const toy = await toys.get({ namespace, name });
    return toy.status?.observedValue === value ? toy : undefined;
  }, { timeoutMs: 90_000, intervalMs: 500, what: `${name} to observe value ${value}` });

  it('keeps leading, renews its Lease again and reconciles every change made around the restart', async () => {
    await waitFor(async () => (manager.isLeader() ? true : undefined), { timeoutMs: 30_000, what: 'the manager to lead' });
    await toys.create({ metadata: { name: 'before', namespace }, spec: { value: 1 } });
    await observed('before', 1);
    const renewedBefore = (await lease()).spec?.renewTime ?? '';

    await restartEtcd();
    // Changes the moment storage is back, likely before watches and renewals resume.
    await waitFor(() => toys.patch({ namespace, name: 'before' }, { spec: { value: 2 } }, { type: 'merge' }), {
      timeoutMs: 60_000, intervalMs: 200, what: 'the API server to accept writes again',
    });
    await toys.create({ metadata: { name: 'after', namespace }, spec: { value: 3 } });

    await observed('before', 2);
    await observed('after', 3);
    // Renewals resumed: the same holder, a later renewTime.
    const renewed = await waitFor(async () => {
      const current = await lease();
      return (current.spec?.renewTime ?? '') > renewedBefore ? current : undefined;
    }, { timeoutMs: 60_000, intervalMs: 500, what: 'the Lease to be renewed after the restart' });
    expect(renewed.spec?.holderIdentity).toBe('etcd-restart-leader');
    expect(manager.isLeader()).toBe(true);
    expect(reconciled).toEqual(expect.arrayContaining([`${namespace}/before`, `${namespace}/after`]));
  });
});
