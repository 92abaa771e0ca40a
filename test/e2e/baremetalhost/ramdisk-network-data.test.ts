import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hostObjects } from '../../../hack/dev/sample-hosts.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { inState, tearDownHostTest, waitForHost } from './hosts.ts';

// BMO without --build-preprov-image puts a host's preprovisioningNetworkDataName Secret on the
// Ironic node as network_data, which Ironic gives the ramdisk it boots. Server 104 is this file's own.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const minutes = (n: number) => n * 60_000;
const SERVER = env.systems[104]!;
const HOST = 'ramdisk-net';
const NETWORK_DATA = {
  links: [{ id: 'enp1s0', type: 'phy', ethernet_mac_address: SERVER.macs[0] }],
  networks: [{ id: 'provisioning', type: 'ipv4', link: 'enp1s0', ip_address: '127.0.0.104', netmask: '255.0.0.0', network_id: '' }],
  services: [{ type: 'dns', address: '127.0.0.53' }],
};

let namespace = '';
let operator: OperatorProcess | undefined;

beforeAll(async () => {
  namespace = await createUniqueNamespace(kubectl, 'e2e-ramdisk-net');
  operator = startOperatorProcess({ env, namespace, label: namespace });
  // YAML, as users write it; the node gets the map.
  const networkData = `links:\n- id: enp1s0\n  type: phy\n  ethernet_mac_address: "${SERVER.macs[0]}"\nnetworks:\n- id: provisioning\n  type: ipv4\n  link: enp1s0\n`
    + '  ip_address: 127.0.0.104\n  netmask: 255.0.0.0\n  network_id: ""\nservices:\n- type: dns\n  address: 127.0.0.53\n';
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${HOST}-network`, namespace }, stringData: { networkData } },
    ...hostObjects({ env, namespace, hosts: [{
      name: HOST, system: SERVER, annotations: { 'inspect.metal3.io': 'disabled' }, spec: { online: false, preprovisioningNetworkDataName: `${HOST}-network` },
    }] }),
  ] }));
}, minutes(2));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
  kubectl.dispose();
}, minutes(5));

describe('preprovisioningNetworkDataName without a PreprovisioningImage builder', () => {
  it('becomes the Ironic node\'s network_data, and the Secret can be deleted with the host', async () => {
    const host = await waitForHost(kubectl, namespace, HOST, inState('available'), { timeoutMs: minutes(3), failOnError: true });
    const node = await ironic.request<{ network_data?: unknown }>('GET', `/v1/nodes/${host.status!.provisioning!.ID!}`);
    expect(node.network_data).toEqual(NETWORK_DATA);
    // Claimed without a finalizer: deleting it does not wait for the host.
    const secret = await kubectl.json<{ metadata: { finalizers?: string[] } }>(['get', 'secret', `${HOST}-network`, '-n', namespace, '-o', 'json']);
    expect(secret.metadata.finalizers ?? []).toEqual([]);
  });
});
