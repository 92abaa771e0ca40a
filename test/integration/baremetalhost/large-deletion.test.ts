import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { BareMetalHostResource } from '../../../operator/api/baremetalhost.ts';
import { HardwareDataResource } from '../../../operator/api/hardwaredata.ts';
import { CLAIMED_SECRET_SELECTOR } from '../../../operator/secrets/index.ts';
import { SecretResource } from '../../../operator/runtime/index.ts';
import { startOperator } from './operator-under-test.ts';
import type { OperatorUnderTest } from './operator-under-test.ts';

// Generous: a loaded shared machine slows the API server and the operator, never the assertion
// (about 3 minutes in all on a machine at load 10; much longer at load 50).
jest.setTimeout(2_400_000);

const CRD_NAMES = ['baremetalhosts.metal3.io', 'hardwaredata.metal3.io'];
// Enough hosts that each one's dozens of progress requeues would have added up: before the
// controller forgot the backoff on progress, such a run stayed in `powering off before delete`.
const HOSTS = 300;

interface HostList {
  items: Array<{ metadata: { name: string }; status?: { provisioning?: { state?: string } } }>;
}

describe('a large deletion with the fixture provisioner, and the caches after it', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let installedCrds = false;
  let operator: OperatorUnderTest;

  const names = Array.from({ length: HOSTS }, (_, i) => `host-${String(i).padStart(3, '0')}`);
  const apply = (objects: unknown[]) => kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  const hosts = () => kubectl.json<HostList>(['get', 'bmh', '-n', namespace]);

  beforeAll(async () => {
    installedCrds = (await kubectl.run(['get', 'crd', ...CRD_NAMES, '-o', 'name'])).code !== 0;
    await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
    await kubectl.ok(['wait', '--for=condition=Established', '--timeout=60s', ...CRD_NAMES.map((name) => `crd/${name}`)]);
    namespace = await createUniqueNamespace(kubectl, 'bmh-scale');
    operator = startOperator(env, namespace);
  });

  afterAll(async () => {
    await operator?.stop();
    if (namespace) {
      // Only what still holds a finalizer (a failed run) needs a patch; 600 patches would take minutes.
      const held = await kubectl.json<{ items: Array<{ kind: string; metadata: { name: string; finalizers?: string[] } }> }>(['get', 'baremetalhosts,hardwaredata,secrets', '-n', namespace]);
      for (const object of held.items.filter((item) => item.metadata.finalizers?.length)) {
        await kubectl.run(['patch', `${object.kind}/${object.metadata.name}`, '-n', namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
      }
      await kubectl.ok(['delete', 'baremetalhosts,hardwaredata,secrets', '--all', '-n', namespace, '--wait=false']);
      await deleteNamespace(kubectl, namespace);
    }
    if (installedCrds) await kubectl.ok(['delete', 'crd', ...CRD_NAMES, '--wait=false']);
    kubectl.dispose();
  });

  it(`takes ${HOSTS} hosts to available, then deletes every one of them`, async () => {
    await apply(
      names.flatMap((name, index) => [
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace }, type: 'Opaque', stringData: { username: 'admin', password: 'secret' } },
        {
          apiVersion: 'metal3.io/v1alpha1',
          kind: 'BareMetalHost',
          metadata: { name, namespace },
          spec: {
            online: false,
            bootMACAddress: `52:54:00:aa:${(index >> 8).toString(16).padStart(2, '0')}:${(index & 0xff).toString(16).padStart(2, '0')}`,
            bmc: { address: `redfish+http://127.0.0.1:1/redfish/v1/Systems/${name}`, credentialsName: `${name}-bmc` },
          },
        },
      ]),
    );
    await waitFor(
      async () => {
        const list = await hosts();
        const available = list.items.filter((host) => host.status?.provisioning?.state === 'available').length;
        return available === HOSTS ? list : undefined;
      },
      { timeoutMs: 900_000, intervalMs: 2_000, what: `all ${HOSTS} hosts to be available` },
    );
    const poweredOnByRegistration = operator.fixture.calls.filter((call) => call.verb === 'powerOff').length;
    // The operator's caches (the manager's shared informers) hold one trimmed copy per object.
    const caches = {
      hosts: operator.manager.informer(BareMetalHostResource),
      secrets: operator.manager.informer(SecretResource, { labelSelector: CLAIMED_SECRET_SELECTOR }),
      hardwareData: operator.manager.informer(HardwareDataResource),
    };
    const stored = await kubectl.json<{ metadata: { managedFields?: unknown[] } }>(['get', 'bmh', names[0]!, '-n', namespace, '--show-managed-fields']);
    expect(stored.metadata.managedFields?.length).toBeGreaterThan(0);
    for (const cache of Object.values(caches)) {
      expect(cache.list()).toHaveLength(HOSTS);
      expect(cache.list().filter((object) => object.metadata.managedFields !== undefined)).toEqual([]);
    }
    expect(operator.fixture.hostCount).toBe(HOSTS);
    const registrationSeries = (await operator.manager.registry.metrics()).split('\n')
      .filter((line) => line.startsWith(`metal3_operation_register_duration_seconds_count{namespace="${namespace}"`));
    expect(registrationSeries).toHaveLength(HOSTS);

    await kubectl.ok(['delete', 'bmh', '--all', '-n', namespace, '--wait=false']);
    const gone = await waitFor(
      async () => {
        const list = await hosts();
        return list.items.length === 0 ? list : undefined;
      },
      { timeoutMs: 900_000, intervalMs: 2_000, what: `all ${HOSTS} deleted hosts to be gone` },
    );
    expect(gone.items).toEqual([]);
    // Every host went through the provisioner's deletion (not a finalizer dropped some other way).
    const deleted = new Set(operator.fixture.calls.filter((call) => call.verb === 'delete').map((call) => call.host));
    expect(deleted.size).toBe(HOSTS);
    expect(operator.fixture.calls.filter((call) => call.verb === 'powerOff').length).toBeGreaterThan(poweredOnByRegistration);

    // Caches shrink with the hosts: nothing is kept for a deleted host. The test API server has
    // no garbage collector, so the owned HardwareData and the Secrets are deleted as it would.
    await waitFor(async () => (caches.hosts.list().length === 0 ? true : undefined), { timeoutMs: 60_000, what: 'the host cache to empty' });
    expect(operator.fixture.hostCount).toBe(0);
    // Nor do the host's metric series (metal3_reconcile_total, the operation histograms…), which
    // every host had: a deleted host costs the metrics page nothing.
    const seriesOfThisNamespace = (await operator.manager.registry.metrics()).split('\n').filter((line) => line.includes(`namespace="${namespace}"`));
    expect(seriesOfThisNamespace).toEqual([]);
    await kubectl.ok(['delete', 'hardwaredata,secrets', '--all', '-n', namespace, '--wait=false']);
    await waitFor(async () => (caches.secrets.list().length + caches.hardwareData.list().length === 0 ? true : undefined), {
      timeoutMs: 120_000, intervalMs: 500, what: 'the Secret and HardwareData caches to empty',
    });
  });
});
