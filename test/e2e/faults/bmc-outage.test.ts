import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { startSushy, stopSushy } from '../../support/stack-control.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  getHost, hostEvents, inState, recordsSince, serverRecords, tearDownHostTest, waitForHost, type Host,
} from '../baremetalhost/hosts.ts';

// The BMC stops answering: sushy-tools, the one process behind every emulated server's Redfish
// BMC, is stopped while host `provisioning` (server 68) provisions, and again while both hosts
// (68 and `spare`, 69, available throughout) are deleted. An outage for every host on the stack,
// so `npm run test:stack` runs this file alone (test/support/exclusive-files.ts).
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const SERVERS = { provisioning: env.systems[68]!, spare: env.systems[69]! };
type HostName = keyof typeof SERVERS;

let namespace = '';
let operator: OperatorProcess | undefined;
let sushyDown = false;
const baselines = new Map<HostName, SystemRecords>();

async function bmcOutage<T>(during: () => Promise<T>): Promise<T> {
  await stopSushy();
  sushyDown = true;
  try {
    return await during();
  } finally {
    await startSushy();
    sushyDown = false;
  }
}

function hostManifests(name: HostName) {
  const server = SERVERS[name];
  return [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace }, stringData: env.bmcCredentials! },
    { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
      metadata: { name, namespace, annotations: { 'inspect.metal3.io': 'disabled' } },
      spec: { online: name === 'provisioning', bootMACAddress: server.macs[0], automatedCleaningMode: 'disabled',
        bmc: { address: server.redfishAddress, credentialsName: `${name}-bmc` } } },
  ];
}

const healthy = (state: string) => (host: Host) => inState(state)(host) && !host.status?.errorType && host.status?.operationalStatus === 'OK';

beforeAll(async () => {
  namespace = await createUniqueNamespace(kubectl, 'e2e-bmc-outage');
  for (const name of Object.keys(SERVERS) as HostName[]) baselines.set(name, await serverRecords(env, SERVERS[name].uuid));
  // A short deletion deadline: with the BMC gone, deletion gives up powering off and cleaning in a minute.
  operator = startOperatorProcess({ env, namespace, label: 'bmc-outage', extraEnv: { DELETION_TIMEOUT: '60s' } });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List',
    items: [...hostManifests('provisioning'), ...hostManifests('spare')] }));
}, minutes(2));

afterAll(async () => {
  // The files after this one need every BMC back.
  if (sushyDown) await startSushy();
  await tearDownHostTest({ env, kubectl, namespace, operator });
  kubectl.dispose();
}, minutes(6));

describe('a BMC that stops answering', () => {
  it('mid-provisioning: the host says its BMC is unreachable, then provisions once the BMC is back, the image written once', async () => {
    await Promise.all((Object.keys(SERVERS) as HostName[]).map((name) =>
      waitForHost(kubectl, namespace, name, inState('available'), { timeoutMs: minutes(4), failOnError: true })));
    await kubectl.ok(['patch', 'bmh', 'provisioning', '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: {
      image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' } } })]);
    // Caught as soon as the operator starts provisioning, well before the ramdisk could write the image.
    await waitFor(async () => ((await getHost(kubectl, namespace, 'provisioning'))?.status?.provisioning?.state === 'provisioning' ? true : undefined),
      { timeoutMs: minutes(2), intervalMs: 100, what: 'provisioning to start' });

    const failing = await bmcOutage(async () => {
      const host = await waitForHost(kubectl, namespace, 'provisioning', (candidate) => Boolean(candidate.status?.errorType), { timeoutMs: minutes(4) });
      const events = await hostEvents(kubectl, namespace, 'provisioning');
      return { host, events };
    });
    // What a user reads while the BMC is down: which BMC (its address), and that it does not answer.
    const bmc = new URL(SERVERS.provisioning.redfishAddress.replace(/^redfish\+/, '')).host;
    expect(failing.host.status?.operationalStatus).toBe('error');
    expect(failing.host.status?.errorMessage).toContain(bmc);
    expect(failing.events.some((event) => event.startsWith('ProvisioningError: ') && event.includes(bmc))).toBe(true);
    expect(JSON.stringify(failing)).not.toContain(env.bmcCredentials!.password);

    const provisioned = await waitForHost(kubectl, namespace, 'provisioning', healthy('provisioned'), { timeoutMs: minutes(8) });
    const nodeUuid = provisioned.status!.provisioning!.ID!;
    expect((await ironic.node(nodeUuid)).provision_state).toBe('active');
    const server = recordsSince(await serverRecords(env, SERVERS.provisioning.uuid), baselines.get('provisioning')!);
    expect(server.imageWrites).toEqual([expect.objectContaining({ nodeUuid, outcome: 'written' })]);
    // The host that only sat through the outage ends where it was, with no error either.
    await waitForHost(kubectl, namespace, 'spare', healthy('available'), { timeoutMs: minutes(3) });
  }, minutes(16));

  it('deletes both hosts while the BMC is down again, and their Ironic nodes are gone', async () => {
    const nodes = await Promise.all((Object.keys(SERVERS) as HostName[]).map(async (name) => (await getHost(kubectl, namespace, name))!.status!.provisioning!.ID!));
    await bmcOutage(async () => {
      await kubectl.ok(['delete', 'bmh', '--all', '-n', namespace, '--wait=false']);
      await waitFor(async () => ((await kubectl.ok(['get', 'bmh', '-n', namespace, '-o', 'name'])).trim() === '' ? true : undefined),
        { timeoutMs: minutes(5), intervalMs: 1_000, what: 'both hosts to be deleted' });
    });
    for (const uuid of nodes) {
      const gone = await fetch(`${env.ironicUrl}/v1/nodes/${uuid}`, { headers: { 'x-openstack-ironic-api-version': '1.95' } });
      expect(gone.status).toBe(404);
    }
  }, minutes(8));
});
