import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { workloadKubeconfigSecret } from '../../../hack/capi/index.ts';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { ClusterApiObjects } from '../../integration/capm3/objects.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { releaseNodesNamed } from '../../support/release-systems.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { getHost, waitForHost } from '../baremetalhost/hosts.ts';

// The provider and the operator as processes against the real stack: a Machine's
// Metal3Machine claims a BareMetalHost by its labels, real Ironic provisions it through the
// emulated Redfish BMC and the agent simulator, whose installed OS registers the Node.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const workload = new Kubectl({ kubectl: env.kubectl, kubeconfig: env.workload.kubeconfig });
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
jest.setTimeout(minutes(10));

// Servers 8 and 9 of the test stack are this file's own.
const WORKER = { name: 'worker-host', system: 8 };
const SPARE = { name: 'spare-host', system: 9 };
const nodeName = `e2e-worker-${randomBytes(3).toString('hex')}`;

let namespace = '';
let objects: ClusterApiObjects;
let operator: OperatorProcess;
let provider: ProviderProcess;

interface Node { metadata: { name: string; labels?: Record<string, string> }; spec?: { providerID?: string } }
interface M3M { spec: { providerID?: string }; status?: { initialization?: { provisioned?: boolean } } }

async function records(system: number): Promise<SystemRecords> {
  return (await (await fetch(`${env.agentSimulatorUrl}/records/${env.systems[system]!.uuid}`)).json()) as SystemRecords;
}

async function findNode(name: string): Promise<Node | undefined> {
  const result = await workload.run(['get', 'node', name, '-o', 'json']);
  return result.code === 0 ? (JSON.parse(result.stdout) as Node) : undefined;
}

const redfishHost = (host: { name: string; system: number }, labels: Record<string, string>) => {
  const system = env.systems[host.system]!;
  return [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${host.name}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
    { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: host.name, namespace, labels },
      spec: { online: false, bootMACAddress: system.macs[0], bmc: { address: system.redfishAddress, credentialsName: `${host.name}-bmc` } } },
  ];
};

beforeAll(async () => {
  await installProviderCrds(kubectl, env);
  namespace = await createUniqueNamespace(kubectl, 'e2e-capm3');
  objects = new ClusterApiObjects(kubectl, namespace);
  operator = startOperatorProcess({ env, namespace, label: `capm3-${namespace}` });
  provider = startProviderProcess({ env, namespace, label: `e2e-${namespace}` });
  await objects.apply([...redfishHost(WORKER, { role: 'worker' }), ...redfishHost(SPARE, { role: 'spare' })]);
}, minutes(2));

afterAll(async () => {
  await provider?.stop();
  if (namespace) {
    await kubectl.run(['delete', 'bmh', '--all', '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await kubectl.run(['get', 'bmh', '-n', namespace, '-o', 'name'])).stdout.trim() ? undefined : true),
      { timeoutMs: minutes(3), what: 'hosts to be deleted' }).catch(() => undefined);
  }
  await operator?.stop();
  if (namespace) {
    await releaseNodesNamed(env, `${namespace}~`);
    await deleteProviderNamespace(kubectl, namespace);
  }
  await workload.run(['delete', 'node', nodeName, '--ignore-not-found']);
  kubectl.dispose();
  workload.dispose();
}, minutes(5));

describe('a Cluster API Machine provisions a BareMetalHost through real Ironic and releases it', () => {
  it('chooses the host by its labels, provisions it with the bootstrap data and links the Node', async () => {
    for (const host of [WORKER, SPARE]) {
      await waitForHost(kubectl, namespace, host.name, (h) => h.status?.provisioning?.state === 'available', { timeoutMs: minutes(4), failOnError: true });
    }
    await objects.cluster('e2e');
    await objects.apply([workloadKubeconfigSecret(env, 'e2e', namespace)]);
    await objects.bootstrapSecret('e2e-worker-bootstrap', `#cloud-config\nhostname: ${nodeName}\n`);
    await objects.machine('worker-0', { cluster: 'e2e', dataSecretName: 'e2e-worker-bootstrap', m3mSpec: {
      image: { url: image.url, checksum: image.sha256, checksumType: 'sha256', diskFormat: 'raw' },
      hostSelector: { matchLabels: { role: 'worker' } },
    } });

    const provisioned = await waitForHost(kubectl, namespace, WORKER.name, (h) => h.status?.provisioning?.state === 'provisioned',
      { timeoutMs: minutes(5), failOnError: true });
    expect(provisioned.status?.provisioning?.image?.url).toBe(image.url);
    expect((await getHost(kubectl, namespace, SPARE.name))?.status?.provisioning?.state).toBe('available');
    const write = (await records(WORKER.system)).imageWrites.at(-1);
    expect(write).toMatchObject({ outcome: 'written', url: image.url, configDrive: { written: true } });

    const providerID = `metal3://${namespace}/${WORKER.name}/worker-0`;
    const m3m = await waitFor(async () => {
      const found = await objects.get<M3M>('m3m', 'worker-0');
      return found.status?.initialization?.provisioned ? found : undefined;
    }, { timeoutMs: minutes(1), what: 'worker-0 to report provisioned' });
    expect(m3m.spec.providerID).toBe(providerID);

    // The installed OS registered its Node under the hostname from the bootstrap user data,
    // labelled with the host's UID from the config drive; the provider then set its providerID.
    const node = await waitFor(async () => {
      const found = await findNode(nodeName);
      return found?.spec?.providerID ? found : undefined;
    }, { timeoutMs: minutes(2), what: `Node ${nodeName} to get a providerID` });
    expect(node.spec?.providerID).toBe(providerID);
    expect(node.metadata.labels?.['metal3.io/uuid']).toBe(provisioned.metadata.uid);
  });

  it('deleting the Metal3Machine deprovisions, cleans and frees the host, and its Node goes away', async () => {
    const wipesBefore = (await records(WORKER.system)).diskWipes.length;
    // Cluster API's Machine controller deletes the infrastructure machine when the Machine goes.
    await kubectl.ok(['delete', 'm3m', 'worker-0', '-n', namespace, '--wait=false']);
    const freed = await waitForHost(kubectl, namespace, WORKER.name,
      (h) => h.status?.provisioning?.state === 'available' && !(h.spec as { consumerRef?: unknown }).consumerRef,
      { timeoutMs: minutes(5), failOnError: true });
    expect(freed.spec.image).toBeUndefined();
    expect((await records(WORKER.system)).diskWipes.length).toBeGreaterThan(wipesBefore);
    await waitFor(async () => ((await objects.find('m3m', 'worker-0')) ? undefined : true), { timeoutMs: minutes(1), what: 'worker-0 to be gone' });
    await waitFor(async () => ((await findNode(nodeName)) ? undefined : true), { timeoutMs: minutes(1), what: `Node ${nodeName} to be deleted` });
  });
});
