import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { prepareOperatorWebhook, type OperatorWebhook } from '../../../hack/stack/operator-webhook.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { getHost, hostEvents, inState, sushyPowerState, tearDownHostTest, waitForHost } from './hosts.ts';

// DataImage on emulated servers 72 and 73, as BMO does it: an ISO inserted into the virtual CD of
// a provisioned host when the host is powered on again (here by a one-shot reboot), through
// Ironic's virtual media API, and ejected at the next reboot after the DataImage is deleted. Every
// step is read back from the emulated BMC (sushy-tools' VirtualMedia resource, over Redfish with
// the stack's BMC credentials) and from Ironic (GET /v1/nodes/{node}/vmedia). Server 73 gets an
// image URL the webhook accepts but nobody serves: the failure is counted with Ironic's words.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const SERVERS = { attached: 72, unreachable: 73 } as const;
type HostName = keyof typeof SERVERS;
const ISO_URL = `${env.artifactsUrl}/ipa.iso`;
const MISSING_URL = `${env.artifactsUrl}/no-such-data.iso`;
const LABEL = 'e2e-dataimage';

interface DataImage {
  metadata: { finalizers?: string[]; deletionTimestamp?: string; ownerReferences?: { kind: string; name: string; controller?: boolean }[] };
  spec: { url: string };
  status?: { lastReconciled?: string; attachedImage?: { url: string }; error?: { count: number; message: string } };
}
interface VirtualMedia { Inserted: boolean; Image: string | null }

let namespace = '';
let operator: OperatorProcess | undefined;
let webhook: OperatorWebhook | undefined;

const authorization = `Basic ${Buffer.from(`${env.bmcCredentials!.username}:${env.bmcCredentials!.password}`).toString('base64')}`;
const cdPath = (host: HostName) => `${env.sushyUrl}/redfish/v1/Systems/${env.systems[SERVERS[host]]!.uuid}/VirtualMedia/Cd`;

/** The virtual CD as the emulated BMC reports it. */
async function bmcCd(host: HostName): Promise<VirtualMedia> {
  const response = await fetch(cdPath(host), { headers: { authorization } });
  if (!response.ok) throw new Error(`GET VirtualMedia/Cd of ${host}: HTTP ${response.status}`);
  return (await response.json()) as VirtualMedia;
}

async function nodeId(host: HostName): Promise<string> {
  return (await getHost(kubectl, namespace, host))!.status!.provisioning!.ID!;
}

/** Whether Ironic reports a CD or DVD inserted on the host's node. */
async function ironicCdInserted(host: HostName): Promise<boolean> {
  const media = await ironic.request<{ media_types?: string[]; inserted?: boolean }[]>('GET', `/v1/nodes/${await nodeId(host)}/vmedia`);
  return media.some((device) => device.inserted === true && (device.media_types ?? []).some((type) => type === 'CD' || type === 'DVD'));
}

async function getDataImage(host: HostName): Promise<DataImage | undefined> {
  const result = await kubectl.run(['get', 'dataimage', host, '-n', namespace, '-o', 'json']);
  return result.code === 0 ? (JSON.parse(result.stdout) as DataImage) : undefined;
}

async function waitForDataImage(host: HostName, accept: (image: DataImage | undefined) => boolean, what: string, timeoutMs = minutes(2)): Promise<DataImage | undefined> {
  let last: DataImage | undefined;
  return waitFor(async () => {
    last = await getDataImage(host);
    return accept(last) ? { image: last } : undefined;
  }, { timeoutMs, intervalMs: 1_000, what: `DataImage ${host} ${what}` })
    .then((found) => found.image)
    .catch((error: unknown) => {
      throw new Error(`${(error as Error).message}; last: ${JSON.stringify(last ?? null)}`, { cause: error });
    });
}

async function waitForCd(host: HostName, inserted: boolean, timeoutMs = minutes(3)): Promise<VirtualMedia> {
  let last: VirtualMedia | undefined;
  return waitFor(async () => {
    last = await bmcCd(host);
    return last.Inserted === inserted ? last : undefined;
  }, { timeoutMs, intervalMs: 1_000, what: `the BMC of ${host} to report its CD ${inserted ? 'inserted' : 'empty'}` }).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}; last: ${JSON.stringify(last ?? null)}`, { cause: error });
  });
}

const applyDataImage = (host: HostName, url: string) => kubectl.run(['apply', '-f', '-'], JSON.stringify({
  apiVersion: 'metal3.io/v1alpha1', kind: 'DataImage', metadata: { name: host, namespace }, spec: { url },
}));

const reboot = (host: HostName) => kubectl.ok(['annotate', 'bmh', host, '-n', namespace, '--overwrite', 'reboot.metal3.io=']);

/** The reboot is over: the annotation is gone and the server is on again. */
async function waitForRebootDone(host: HostName): Promise<void> {
  await waitFor(async () => {
    const found = await kubectl.json<{ metadata: { annotations?: Record<string, string> }; status?: { poweredOn?: boolean } }>(['get', 'bmh', host, '-n', namespace]);
    return !('reboot.metal3.io' in (found.metadata.annotations ?? {})) && found.status?.poweredOn === true ? true : undefined;
  }, { timeoutMs: minutes(3), intervalMs: 1_000, what: `the reboot of ${host} to finish` });
  expect(await sushyPowerState(env, env.systems[SERVERS[host]]!.uuid)).toBe('On');
}

const sha256 = (bytes: ArrayBuffer | Buffer) => createHash('sha256').update(Buffer.from(bytes as ArrayBuffer)).digest('hex');

beforeAll(async () => {
  // Empty CDs to start from (an earlier run may have left one in).
  for (const host of Object.keys(SERVERS) as HostName[]) {
    const response = await fetch(`${cdPath(host)}/Actions/VirtualMedia.EjectMedia`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: '{}' });
    if (!response.ok) throw new Error(`EjectMedia on ${host}: HTTP ${response.status}`);
  }
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/dataimages.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, LABEL);
  webhook = await prepareOperatorWebhook({ target: env, dir: join(env.stateDir, 'webhooks', namespace), name: `dataimage-${namespace}`, namespace });
  operator = startOperatorProcess({ env, namespace, label: LABEL, extraEnv: webhook.operatorEnv });
  await webhook.register(operator.process);
  const items = Object.entries(SERVERS).flatMap(([name, index]) => {
    const system = env.systems[index]!;
    return [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
      {
        apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace },
        spec: {
          online: true, bootMACAddress: system.macs[0], bmc: { address: system.redfishAddress, credentialsName: `${name}-bmc` }, automatedCleaningMode: 'disabled',
          image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' },
        },
      },
    ];
  });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}, minutes(3));

afterAll(async () => {
  await webhook?.unregister();
  await tearDownHostTest({ env, kubectl, namespace, operator });
  if (!namespace) return;
  // DataImages the operator could not release keep their finalizer without it.
  const left = (await kubectl.run(['get', 'dataimage', '-n', namespace, '-o', 'name'])).stdout.split('\n').filter(Boolean);
  for (const name of left) await kubectl.run(['patch', name, '-n', namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
}, minutes(5));

describe('DataImage: a virtual CD for a provisioned host', () => {
  it('refuses a DataImage whose URL BMO would not accept, in the webhook', async () => {
    const refused = await applyDataImage('attached', 'file:///data.iso');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('admission webhook "dataimage.metal3.io" denied the request: URL "file:///data.iso" is invalid: invalid scheme in URL, "file" not allowed');
    const relative = await applyDataImage('attached', 'data.iso');
    expect(relative.stderr).toContain('denied the request: URL "data.iso" is invalid: parse "data.iso": invalid URI for request');
    expect(await getDataImage('attached')).toBeUndefined();
  }, minutes(1));

  it('inserts the ISO into the BMC\'s virtual CD when the provisioned host is rebooted', async () => {
    await waitForHost(kubectl, namespace, 'attached', inState('provisioned'), { timeoutMs: minutes(9), failOnError: true });
    expect(await bmcCd('attached')).toMatchObject({ Inserted: false });
    expect(await ironicCdInserted('attached')).toBe(false);

    expect((await applyDataImage('attached', ISO_URL)).stderr).toBe('');
    // The DataImage controller made the host its owner and added BMO's finalizer.
    const adopted = await waitForDataImage('attached', (found) => (found?.metadata.finalizers ?? []).includes('dataimage.metal3.io'), 'to get its finalizer');
    expect(adopted?.metadata.ownerReferences).toEqual([{ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'attached', uid: expect.any(String) }]);

    await reboot('attached');
    const cd = await waitForCd('attached', true);
    const node = await nodeId('attached');
    // Ironic downloaded the ISO and serves its own copy to the BMC, named after the node.
    expect(cd.Image).toBe(`${env.artifactsUrl}/httpboot/redfish/cdrom-${node}.iso`);
    const [original, served] = await Promise.all([ISO_URL, cd.Image!].map(async (url) => (await fetch(url)).arrayBuffer()));
    expect(sha256(served!)).toBe(sha256(original!));
    expect(await ironicCdInserted('attached')).toBe(true);
    await waitForRebootDone('attached');
    const attached = await waitForDataImage('attached', (found) => found?.status?.attachedImage?.url === ISO_URL && found.status.error?.count === 0, 'to show the image attached');
    expect(attached?.status?.lastReconciled).toMatch(/^\d{4}-\d\d-\d\dT/);

    const table = await kubectl.ok(['get', 'dataimage', '-n', namespace]);
    expect(table.split('\n')[0]).toMatch(/^NAME\s+URL\s+ATTACHED\s+ERRORS\s+RECONCILED\s+AGE$/);
    expect(table).toMatch(new RegExp(`attached\\s+${ISO_URL}\\s+${ISO_URL}\\s+0\\s`));
  }, minutes(13));

  it('keeps a deleted DataImage until the next reboot ejects the CD, then lets it go', async () => {
    await kubectl.ok(['delete', 'dataimage', 'attached', '-n', namespace, '--wait=false']);
    // The controller saw the deletion and is waiting for the detach (its log says so).
    const log = join(env.stateDir, 'logs', `operator-${LABEL}.log`);
    await waitFor(async () => (readFileSync(log, 'utf8').includes('waiting for the dataImage to be detached') ? true : undefined), {
      timeoutMs: minutes(1), what: 'the DataImage controller to wait for the detach',
    });
    expect((await getDataImage('attached'))?.metadata.deletionTimestamp).toBeDefined();
    expect(await bmcCd('attached')).toMatchObject({ Inserted: true });

    await reboot('attached');
    await waitForCd('attached', false);
    expect(await ironicCdInserted('attached')).toBe(false);
    await waitForRebootDone('attached');
    await waitForDataImage('attached', (found) => found === undefined, 'to be gone');
  }, minutes(5));

  it('counts a failed attach with Ironic\'s message and keeps the host off until the DataImage goes', async () => {
    await waitForHost(kubectl, namespace, 'unreachable', inState('provisioned'), { timeoutMs: minutes(4), failOnError: true });
    expect((await applyDataImage('unreachable', MISSING_URL)).stderr).toBe('');
    await waitForDataImage('unreachable', (found) => (found?.metadata.finalizers ?? []).includes('dataimage.metal3.io'), 'to get its finalizer');
    await reboot('unreachable');
    const failedImage = await waitForDataImage('unreachable', (found) => (found?.status?.error?.count ?? 0) >= 1, 'to count a failure', minutes(3));
    const node = await nodeId('unreachable');
    expect(failedImage?.status?.error?.message).toMatch(new RegExp(`^Could not attach device cdrom to node ${node}: .+`));
    expect(failedImage?.status?.attachedImage?.url).toBe('');
    expect(await hostEvents(kubectl, namespace, 'unreachable')).toContainEqual(expect.stringMatching(/^DataImageError: Could not attach device cdrom/));
    expect(await bmcCd('unreachable')).toMatchObject({ Inserted: false });
    expect(await sushyPowerState(env, env.systems[SERVERS.unreachable]!.uuid)).toBe('Off');

    // Deleting it frees the host: the next look (a user's touch here, not the minutes of backoff) powers it on.
    await kubectl.ok(['delete', 'dataimage', 'unreachable', '-n', namespace, '--wait=false']);
    await kubectl.ok(['annotate', 'bmh', 'unreachable', '-n', namespace, '--overwrite', 'dataimage.metal3-ts.test/probe=1']);
    await waitForRebootDone('unreachable');
    await waitForDataImage('unreachable', (found) => found === undefined, 'to be gone');
  }, minutes(8));
});
