import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { freePort } from '../../../hack/stack/ports.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { tearDownHostTest, getHost, inState, metricValue, waitForHost } from './hosts.ts';

// MAX_PROVISIONING_RETRIES=1 on emulated server 15: an image whose checksum is wrong fails once
// on the hardware, then the operator stops trying it; the right checksum clears the error.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const SERVER = 15;

let namespace = '';
let operator: OperatorProcess;
let metricsUrl = '';
let baseline: SystemRecords;

async function records(): Promise<SystemRecords> {
  return (await (await fetch(`${env.agentSimulatorUrl}/records/${env.systems[SERVER]!.uuid}`)).json()) as SystemRecords;
}

/** Image writes on the server since this file started. */
const imageWrites = async () => (await records()).imageWrites.slice(baseline.imageWrites.length);

async function reconciles(name: string): Promise<number> {
  return metricValue(await (await fetch(metricsUrl)).text(), 'metal3_reconcile_total', { namespace, host: name });
}

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-day2-errors');
  baseline = await records();
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  operator = startOperatorProcess({
    env, namespace, label: 'day2-errors', extraEnv: { MAX_PROVISIONING_RETRIES: '1', METRICS_BIND_ADDRESS: `127.0.0.1:${port}` },
  });
  const system = env.systems[SERVER]!;
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'retried-bmc', namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
      {
        apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: 'retried', namespace },
        spec: {
          online: true,
          bootMACAddress: system.macs[0],
          bmc: { address: system.redfishAddress, credentialsName: 'retried-bmc' },
          automatedCleaningMode: 'disabled',
          image: { url: image.url, checksum: '0'.repeat(64), checksumType: 'sha256', format: 'raw' },
        },
      },
    ],
  }));
}, minutes(2));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('provisioning errors on real Ironic', () => {
  it('MAX_PROVISIONING_RETRIES stops retrying a failing image; a fixed image clears the error and provisions', async () => {
    const limited = await waitForHost(kubectl, namespace, 'retried',
      (host) => host.status?.errorType === 'provisioning error' && (host.status.errorMessage ?? '').includes('retry limit (1) reached'),
      { timeoutMs: minutes(8) });
    expect(limited.status?.operationalStatus).toBe('error');
    expect(limited.status?.provisioning?.state).toBe('available');
    const writes = await imageWrites();
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ outcome: 'failed', url: image.url });

    // Further reconciles (counted by the operator) try nothing on the hardware or in Ironic.
    for (const probe of ['a', 'b']) {
      const before = await reconciles('retried');
      await kubectl.ok(['annotate', 'bmh', 'retried', '-n', namespace, '--overwrite', `day2.metal3-ts.test/probe=${probe}`]);
      await waitFor(async () => ((await reconciles('retried')) > before ? true : undefined), { timeoutMs: minutes(1), what: 'a reconcile' });
    }
    expect(await imageWrites()).toHaveLength(1);
    const node = await ironic.node(limited.status!.provisioning!.ID!);
    expect(['manageable', 'available']).toContain(node.provision_state);
    expect((await getHost(kubectl, namespace, 'retried'))?.status?.errorType).toBe('provisioning error');

    await kubectl.ok(['patch', 'bmh', 'retried', '-n', namespace, '--type=merge', '-p', JSON.stringify({
      spec: { image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' } },
    })]);
    const fixed = await waitForHost(kubectl, namespace, 'retried', inState('provisioned'), { timeoutMs: minutes(5) });
    expect(fixed.status).toMatchObject({ operationalStatus: 'OK', errorCount: 0, provisioningFailCount: 0 });
    expect(fixed.status?.errorType).toBeUndefined();
    const after = await imageWrites();
    expect(after).toHaveLength(2);
    expect(after[1]).toMatchObject({ outcome: 'written', url: image.url });
  }, minutes(14));
});
