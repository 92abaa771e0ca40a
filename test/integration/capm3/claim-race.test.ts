import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { ClusterApiObjects, fakeHost } from './objects.ts';

jest.setTimeout(600_000);

const ROUNDS = 20;
const IMAGE = { url: 'http://127.0.0.1:1/image.raw', checksum: 'http://127.0.0.1:1/image.raw.sha256sum', diskFormat: 'raw' };

interface Host { spec: { consumerRef?: { name: string } } }
interface M3M { status?: { conditions?: { type: string; reason: string }[] } }

/**
 * CAPM3 serialises claims with a mutex inside one process; we condition the claim on the
 * host's resourceVersion, so even two provider processes (no leader election) cannot both
 * take one host.
 */
describe('two provider processes racing for one free host', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let objects: ClusterApiObjects;
  const providers: ProviderProcess[] = [];

  beforeAll(async () => {
    await installProviderCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'capm3-race');
    objects = new ClusterApiObjects(kubectl, namespace);
    await objects.cluster('race');
    await objects.bootstrapSecret('race-bootstrap', '#cloud-config\n');
    for (const label of ['one', 'two']) providers.push(startProviderProcess({ env, namespace, label: `race-${label}-${namespace}` }));
  });

  afterAll(async () => {
    for (const provider of providers) await provider.stop();
    if (namespace) await deleteProviderNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  it(`exactly one wins each of ${ROUNDS} rounds; the other takes the next host that appears`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const pool = { pool: `round-${round}` };
      await fakeHost(objects, `free-${round}`, { labels: pool });
      const machines = [`a-${round}`, `b-${round}`];
      await Promise.all(machines.map((name) => objects.machine(name, { cluster: 'race', dataSecretName: 'race-bootstrap',
        m3mSpec: { image: IMAGE, hostSelector: { matchLabels: pool } } })));

      const winner = await waitFor(async () => (await objects.get<Host>('bmh', `free-${round}`)).spec.consumerRef?.name,
        { timeoutMs: 60_000, intervalMs: 200, what: `free-${round} to be claimed` });
      expect(machines).toContain(winner);
      const loser = machines.find((name) => name !== winner) as string;
      // The loser has looked and found nothing free: proof that it ran after the win.
      await waitFor(async () => {
        const m3m = await objects.get<M3M>('m3m', loser);
        return m3m.status?.conditions?.some((c) => c.type === 'AssociateBareMetalHost' && c.reason === 'AssociateBareMetalHostFailed') ? true : undefined;
      }, { timeoutMs: 60_000, intervalMs: 200, what: `${loser} to wait for a host` });
      expect((await objects.get<Host>('bmh', `free-${round}`)).spec.consumerRef?.name).toBe(winner);

      await fakeHost(objects, `next-${round}`, { labels: pool });
      await waitFor(async () => ((await objects.get<Host>('bmh', `next-${round}`)).spec.consumerRef?.name === loser ? true : undefined),
        { timeoutMs: 60_000, intervalMs: 200, what: `${loser} to take next-${round}` });
      expect((await objects.get<Host>('bmh', `free-${round}`)).spec.consumerRef?.name).toBe(winner);
    }
  });
});
