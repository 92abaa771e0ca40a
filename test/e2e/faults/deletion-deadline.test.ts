import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { getHost, hostEvents, inState, tearDownHostTest, waitForHost, type Host } from '../baremetalhost/hosts.ts';

// A host deleted while its registration keeps failing still goes within DELETION_TIMEOUT: Ironic
// lost the host's node and the BMC now refuses the credentials, so registering the node again
// fails verification on every try, and the host's handler (which checks the deadline) is never
// reached. Without the deadline before registration, three backoffs (1-2, 2-4 and 4-8 minutes)
// passed before the host gave up. Emulated server 94; this file's own operator watches only its namespace.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const minutes = (n: number) => n * 60_000;
const SERVER = env.systems[94]!;
const HOST = 'refused';
const SECRET = `${HOST}-bmc`;

let namespace = '';
let operator: OperatorProcess | undefined;

interface NodeNames { nodes: Array<{ uuid: string; name: string | null }> }
const nodesNamed = async (name: string) =>
  (await ironic.request<NodeNames>('GET', '/v1/nodes?fields=uuid,name')).nodes.filter((node) => node.name === name);
const nodeName = () => `${namespace}~${HOST}`;
const registrationFailing = (host: Host) => host.status?.errorType === 'registration error';

beforeAll(async () => {
  namespace = await createUniqueNamespace(kubectl, 'e2e-deletion-deadline');
  operator = startOperatorProcess({ env, namespace, label: 'deletion-deadline', extraEnv: { DELETION_TIMEOUT: '60s' } });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: SECRET, namespace }, stringData: env.bmcCredentials! },
    { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
      metadata: { name: HOST, namespace, annotations: { 'inspect.metal3.io': 'disabled' } },
      spec: { online: false, bootMACAddress: SERVER.macs[0], automatedCleaningMode: 'disabled',
        bmc: { address: SERVER.redfishAddress, credentialsName: SECRET } } },
  ] }));
}, minutes(2));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
  kubectl.dispose();
}, minutes(6));

describe('the deletion deadline', () => {
  it('releases a host whose registration keeps failing once DELETION_TIMEOUT has passed, and leaves Ironic no node of it', async () => {
    const available = await waitForHost(kubectl, namespace, HOST, inState('available'), { timeoutMs: minutes(4), failOnError: true });
    const firstNode = available.status!.provisioning!.ID!;

    // The BMC's password changes under the host, and the operator hands the new one to Ironic.
    const secret = JSON.parse(await kubectl.ok(['patch', 'secret', SECRET, '-n', namespace, '--type=merge', '-o', 'json',
      '-p', JSON.stringify({ stringData: { password: 'not-the-bmc-password' } })])) as { metadata: { resourceVersion: string } };
    await waitForHost(kubectl, namespace, HOST,
      (host) => host.status?.triedCredentials?.credentialsVersion === secret.metadata.resourceVersion, { timeoutMs: minutes(2) });
    // Ironic loses the node: registering it again fails the BMC's verification.
    await ironic.request('DELETE', `/v1/nodes/${firstNode}`);
    const failing = await waitForHost(kubectl, namespace, HOST, registrationFailing, { timeoutMs: minutes(3) });
    const [recreated] = await nodesNamed(nodeName());
    expect(recreated?.uuid).not.toBe(firstNode);
    const refused = await ironic.node(recreated!.uuid);
    expect([refused.provision_state, refused.last_error]).toEqual(['enroll', expect.any(String)]);
    // Said as what it is: the BMC answers, and refuses the credentials (not "not answering").
    const manageable = failing.status?.conditions?.find((condition) => condition.type === 'Manageable');
    expect(manageable).toMatchObject({ status: 'False', reason: 'PowerFailure' });
    expect(manageable?.message).toMatch(/^the BMC refuses the credentials: .*returned code 401/);
    expect(failing.status?.errorMessage).toContain('returned code 401');

    await kubectl.ok(['delete', 'bmh', HOST, '-n', namespace, '--wait=false']);
    // Well inside the 7-14 minutes the failed registrations' backoffs would take.
    await waitFor(async () => ((await getHost(kubectl, namespace, HOST)) === undefined ? true : undefined),
      { timeoutMs: minutes(4), intervalMs: 1_000, what: 'the host to be deleted' });
    const events = await hostEvents(kubectl, namespace, HOST);
    expect(events).toContain('CleanupSkipped: giving up on powering off the host before deletion (deletion has been running for more than 1m)');
    expect(events.some((event) => event.startsWith('BMCRefusesCredentials: the BMC refuses the credentials: '))).toBe(true);
    expect(events.some((event) => event.startsWith('BMCNotAnswering'))).toBe(false);
    expect(events.join('\n')).not.toContain('not-the-bmc-password');
    // The node registration made again is removed with the host.
    expect(await nodesNamed(nodeName())).toEqual([]);
    const gone = await fetch(`${env.ironicUrl}/v1/nodes/${recreated!.uuid}`, { headers: { 'x-openstack-ironic-api-version': '1.95' } });
    expect(gone.status).toBe(404);
  }, minutes(12));
});
