import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startKubeControllers, type KubeControllers } from '../../../hack/stack/kube-controllers.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { getHost, inState, tearDownHostTest, waitForHost } from './hosts.ts';

// What a real cluster does when hosts are deleted, with Kubernetes' own garbage collector (the
// stack runs no controllers; this file starts kube-controller-manager's collector for itself, so
// it runs alone, see exclusive-files.ts). It follows the owner references the operator writes,
// as BMO writes them: the host owns its HostFirmwareSettings (one made by a user before the
// host among them), HostFirmwareComponents, DataImage and BMC Secret, the settings own the
// FirmwareSchema they share. Two hosts on servers 82-83 (borrowed from operator-kills' large
// run) share one BMC Secret.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const minutes = (n: number) => n * 60_000;
const SERVERS = { first: 82, second: 83 } as const;
type HostName = keyof typeof SERVERS;
const HOSTS = Object.keys(SERVERS) as HostName[];
const SECRET = 'shared-bmc';
const IRONIC_VERSION = { 'x-openstack-ironic-api-version': '1.95' };

interface OwnerReference { kind: string; name: string; uid: string }
interface Dependent { metadata: { name: string; uid: string; ownerReferences?: OwnerReference[]; finalizers?: string[] } }

let namespace = '';
let operator: OperatorProcess | undefined;
let collector: KubeControllers | undefined;

/** The object as stored, or undefined once it is gone. */
async function read(kind: string, name: string): Promise<Dependent | undefined> {
  const result = await kubectl.run(['get', kind, name, '-n', namespace, '-o', 'json']);
  if (result.code === 0) return JSON.parse(result.stdout) as Dependent;
  if (result.stderr.includes('NotFound')) return undefined;
  throw new Error(`kubectl get ${kind} ${name}: ${result.stderr}`);
}

const owners = (object: Dependent | undefined) => (object?.metadata.ownerReferences ?? []).map((ref) => `${ref.kind}/${ref.name}`).sort();

async function waitUntilGone(kind: string, name: string): Promise<void> {
  await waitFor(async () => ((await read(kind, name)) === undefined ? true : undefined),
    { timeoutMs: minutes(2), intervalMs: 500, what: `${kind} ${name} to be collected` });
}

async function firmwareSchemaName(): Promise<string> {
  const list = await kubectl.json<{ items: Dependent[] }>(['get', 'firmwareschema', '-n', namespace, '-o', 'json']);
  expect(list.items).toHaveLength(1);
  return list.items[0]!.metadata.name;
}

beforeAll(async () => {
  collector = await startKubeControllers({ env, stateDir: env.stateDir, name: 'garbage-collector-e2e', controllers: ['garbage-collector-controller'] });
  namespace = await createUniqueNamespace(kubectl, 'e2e-garbage-collection');
  operator = startOperatorProcess({ env, namespace, label: 'garbage-collection' });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: SECRET, namespace }, stringData: env.bmcCredentials! },
    ...HOSTS.map((name) => ({ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace },
      spec: { online: false, bootMACAddress: env.systems[SERVERS[name]]!.macs[0], automatedCleaningMode: 'disabled',
        bmc: { address: env.systems[SERVERS[name]]!.redfishAddress, credentialsName: SECRET } } })),
    // A DataImage belongs to the host of its name (never attached here: the host stays off).
    { apiVersion: 'metal3.io/v1alpha1', kind: 'DataImage', metadata: { name: 'first', namespace }, spec: { url: `${env.images[0]!.url}` } },
    // HostFirmwareSettings a user made before the host registered: the operator makes it the host's too.
    { apiVersion: 'metal3.io/v1alpha1', kind: 'HostFirmwareSettings', metadata: { name: 'second', namespace }, spec: { settings: {} } },
  ] }));
}, minutes(3));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
  await collector?.stop();
  kubectl.dispose();
}, minutes(6));

describe('Kubernetes\' garbage collector after hosts are deleted', () => {
  it('takes what a deleted host owned, keeps what the other host still owns, then takes that with the last host', async () => {
    const hosts = await Promise.all(HOSTS.map((name) => waitForHost(kubectl, namespace, name, inState('available'), { timeoutMs: minutes(6), failOnError: true })));
    const nodes = hosts.map((host) => host.status!.provisioning!.ID!);
    const uid = Object.fromEntries(HOSTS.map((name, index) => [name, hosts[index]!.metadata.uid])) as Record<HostName, string>;
    // The owner references the operator wrote, as BMO writes them.
    const schema = await firmwareSchemaName();
    await waitFor(async () => (owners(await read('firmwareschema', schema)).length === 2 ? true : undefined),
      { timeoutMs: minutes(1), what: 'the FirmwareSchema to have both hosts\' settings among its owners' });
    expect(owners(await read('firmwareschema', schema))).toEqual(['HostFirmwareSettings/first', 'HostFirmwareSettings/second']);
    expect(owners(await read('secret', SECRET))).toEqual(['BareMetalHost/first', 'BareMetalHost/second']);
    for (const name of HOSTS) {
      for (const kind of ['hostfirmwaresettings', 'hostfirmwarecomponents']) expect(owners(await read(kind, name))).toEqual([`BareMetalHost/${name}`]);
    }
    const dataImage = await waitFor(async () => {
      const image = await read('dataimage', 'first');
      return image?.metadata.finalizers?.includes('dataimage.metal3.io') ? image : undefined;
    }, { timeoutMs: minutes(1), what: 'the DataImage to be adopted by its host' });
    expect(dataImage.metadata.ownerReferences).toEqual([{ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'first', uid: uid.first }]);

    // The first host goes: its own dependents go with it; the shared ones lose only its reference.
    await kubectl.ok(['delete', 'bmh', 'first', '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await getHost(kubectl, namespace, 'first')) === undefined ? true : undefined),
      { timeoutMs: minutes(3), intervalMs: 1_000, what: 'host first to be deleted' });
    for (const kind of ['hostfirmwaresettings', 'hostfirmwarecomponents', 'dataimage']) await waitUntilGone(kind, 'first');
    // The collector removes a dangling reference from a dependent that still has a live owner.
    await waitFor(async () => (owners(await read('secret', SECRET)).length === 1 ? true : undefined),
      { timeoutMs: minutes(2), intervalMs: 500, what: 'the Secret to lose the deleted host\'s reference' });
    await waitFor(async () => (owners(await read('firmwareschema', schema)).length === 1 ? true : undefined),
      { timeoutMs: minutes(2), intervalMs: 500, what: 'the FirmwareSchema to lose the deleted settings\' reference' });
    const secret = await read('secret', SECRET);
    expect(secret?.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'BareMetalHost', name: 'second', uid: uid.second })]);
    // The second host still logs in with it, so the operator kept its finalizer (BMO drops it
    // whichever host goes): a deletion of the Secret would wait for the last host.
    expect(secret?.metadata.finalizers).toContain('baremetalhost.metal3.io/secret');
    expect(owners(await read('firmwareschema', schema))).toEqual(['HostFirmwareSettings/second']);
    expect(owners(await read('hostfirmwaresettings', 'second'))).toEqual(['BareMetalHost/second']);
    // The host left is untouched.
    expect((await getHost(kubectl, namespace, 'second'))?.status).toMatchObject({ provisioning: { state: 'available' }, operationalStatus: 'OK' });

    // The last host goes, deleted in the foreground (`kubectl delete --cascade=foreground`): the
    // collector deletes its dependents first and waits only for those whose reference blocks the
    // owner's deletion; as BMO writes them that is the HardwareData alone, which the operator lets
    // go as it deletes the host, so nothing hangs. The Secret and the schema have no owner left
    // and go too.
    await kubectl.ok(['delete', 'bmh', 'second', '-n', namespace, '--wait=false', '--cascade=foreground']);
    await waitFor(async () => ((await getHost(kubectl, namespace, 'second')) === undefined ? true : undefined),
      { timeoutMs: minutes(3), intervalMs: 1_000, what: 'host second to be deleted' });
    for (const kind of ['hostfirmwaresettings', 'hostfirmwarecomponents']) await waitUntilGone(kind, 'second');
    await waitUntilGone('firmwareschema', schema);
    await waitUntilGone('secret', SECRET);
    for (const node of nodes) expect((await fetch(`${env.ironicUrl}/v1/nodes/${node}`, { headers: IRONIC_VERSION })).status).toBe(404);
    const left = await kubectl.ok(['get', 'hardwaredata,hostfirmwaresettings,hostfirmwarecomponents,firmwareschemas,dataimages,secrets', '-n', namespace, '-o', 'name']);
    expect(left.trim()).toBe('');
  }, minutes(12));
});
