import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hostObjects } from '../../../hack/dev/sample-hosts.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { inState, tearDownHostTest, waitForHost } from './hosts.ts';

// BMO's WATCH_NAMESPACE takes comma-separated namespaces (its e2e overlay watches fifteen). One
// operator watches two of three namespaces here: the hosts of both are registered in Ironic and
// become available on their servers (102 and 103, this file's own); the third namespace's host,
// whose BMC address leads nowhere, is never touched.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const minutes = (n: number) => n * 60_000;

let first = '';
let second = '';
let unwatched = '';
let operator: OperatorProcess | undefined;

interface IronicNode { uuid: string; name: string; provision_state: string }

const hostIn = (namespace: string, name: string, server: number) => hostObjects({ env, namespace, hosts: [{
  name, system: env.systems[server]!, annotations: { 'inspect.metal3.io': 'disabled' }, spec: { online: false },
}] });

beforeAll(async () => {
  first = await createUniqueNamespace(kubectl, 'e2e-watch-a');
  second = await createUniqueNamespace(kubectl, 'e2e-watch-b');
  unwatched = await createUniqueNamespace(kubectl, 'e2e-watch-c');
  operator = startOperatorProcess({ env, namespace: `${first},${second}`, label: first });
  const strayHost = {
    apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: 'stray', namespace: unwatched },
    spec: { online: false, bootMACAddress: '00:5a:91:3f:00:01', bmc: { address: 'redfish+http://127.0.0.1:9/redfish/v1/Systems/stray', credentialsName: 'stray-bmc-secret' } },
  };
  const straySecret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'stray-bmc-secret', namespace: unwatched }, stringData: { username: 'u', password: 'p' } };
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List',
    items: [...hostIn(first, 'in-first', 102), ...hostIn(second, 'in-second', 103), straySecret, strayHost] }));
}, minutes(2));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace: second, operator: undefined });
  await tearDownHostTest({ env, kubectl, namespace: unwatched, operator: undefined });
  await tearDownHostTest({ env, kubectl, namespace: first, operator });
  kubectl.dispose();
}, minutes(8));

describe('an operator watching comma-separated namespaces', () => {
  it('registers and makes available the hosts of both, in Ironic, and leaves a third namespace alone', async () => {
    const [a, b] = await Promise.all([
      waitForHost(kubectl, first, 'in-first', inState('available'), { timeoutMs: minutes(3), failOnError: true }),
      waitForHost(kubectl, second, 'in-second', inState('available'), { timeoutMs: minutes(3), failOnError: true }),
    ]);
    for (const [host, namespace, name] of [[a, first, 'in-first'], [b, second, 'in-second']] as const) {
      const node = await ironic.request<IronicNode>('GET', `/v1/nodes/${host.status!.provisioning!.ID!}`);
      // BMO keeps an available host's node manageable until it is provisioned.
      expect(node).toMatchObject({ name: `${namespace}~${name}`, provision_state: 'manageable' });
    }
    // Both watched hosts went the whole way, so the operator ran; the third has nothing of it.
    const stray = await kubectl.json<{ metadata: { finalizers?: string[] }; status?: unknown }>(['get', 'bmh', 'stray', '-n', unwatched, '-o', 'json']);
    expect(stray.status).toBeUndefined();
    expect(stray.metadata.finalizers ?? []).toEqual([]);
  });
});
