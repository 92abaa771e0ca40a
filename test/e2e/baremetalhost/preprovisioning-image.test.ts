import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BootRecord } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { getHost, hostEvents, inState, recordsSince, serverRecords, tearDownHostTest, waitForHost } from './hosts.ts';

// BMO's PreprovisioningImage flow (--build-preprov-image) on emulated servers 78 and 79, both
// booting from virtual media, each in a namespace of its own with its own operator:
//  - "builtin": the operator's own image provider fills the image from DEPLOY_* (per
//    architecture: DEPLOY_KERNEL_URL_X86_64 and DEPLOY_RAMDISK_BY_ARCH name a kernel and ramdisk
//    written for this run); no DEPLOY_ISO_URL, so the image is an initrd Ironic builds a boot ISO of.
//  - "external": no DEPLOY_* at all, so no built-in provider runs; the host waits until this
//    test, playing an external provider, fills the image's status.
// What the server booted is read back from the agent simulator: the sha256 of the kernel and
// initramfs on the CD it booted, and the kernel command line.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const minutes = (n: number) => n * 60_000;
const SERVERS = { builtin: 78, external: 79 } as const;
type HostName = keyof typeof SERVERS;
const EXTRA_PARAMS = 'metal3-ts.image-provider=external';
const OWNER_FINALIZER = 'baremetalhost.metal3.io/preprovisioningImage';

interface PreprovisioningImage {
  metadata: { generation: number; finalizers?: string[]; ownerReferences?: { kind: string; name: string; controller?: boolean }[] };
  spec: { acceptFormats?: string[]; architecture?: string; networkDataName?: string };
  status?: {
    imageUrl?: string; kernelUrl?: string; extraKernelParams?: string; format?: string; architecture?: string;
    conditions?: { type: string; status: string; reason: string }[];
  };
}
interface IronicNode { provision_state: string; driver_info: Record<string, unknown> }

const namespaces: Record<HostName, string> = { builtin: '', external: '' };
const operators: Partial<Record<HostName, OperatorProcess>> = {};
/** A kernel and an initramfs per host, unique to this run, served by the stack's artifacts server. */
const files: Record<HostName, { kernelUrl: string; ramdiskUrl: string; kernelSha256: string; ramdiskSha256: string }> = {} as never;
const recordsAtStart: Partial<Record<HostName, Awaited<ReturnType<typeof serverRecords>>>> = {};

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const uuidOf = (host: HostName) => env.systems[SERVERS[host]]!.uuid;

function writeIpaFiles(host: HostName): void {
  const dir = join(env.stateDir, 'artifacts', 'ppimg', namespaces[host]);
  mkdirSync(dir, { recursive: true });
  const kernel = `metal3-ts ${host} provider kernel ${randomBytes(8).toString('hex')}\n`;
  const ramdisk = `metal3-ts ${host} provider initramfs ${randomBytes(8).toString('hex')}\n`;
  writeFileSync(join(dir, 'ipa.kernel'), kernel);
  writeFileSync(join(dir, 'ipa.initramfs'), ramdisk);
  const base = `${env.artifactsUrl}/ppimg/${namespaces[host]}`;
  files[host] = { kernelUrl: `${base}/ipa.kernel`, ramdiskUrl: `${base}/ipa.initramfs`, kernelSha256: sha256(kernel), ramdiskSha256: sha256(ramdisk) };
}

async function getImage(host: HostName): Promise<PreprovisioningImage | undefined> {
  const result = await kubectl.run(['get', 'ppimg', host, '-n', namespaces[host], '-o', 'json']);
  return result.code === 0 ? (JSON.parse(result.stdout) as PreprovisioningImage) : undefined;
}

async function waitForImage(host: HostName, accept: (image: PreprovisioningImage) => boolean, what: string): Promise<PreprovisioningImage> {
  let last: PreprovisioningImage | undefined;
  return waitFor(async () => {
    last = await getImage(host);
    return last && accept(last) ? last : undefined;
  }, { timeoutMs: minutes(4), intervalMs: 1_000, what: `PreprovisioningImage ${host} ${what}` }).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}; last: ${JSON.stringify(last ?? null)}`, { cause: error });
  });
}

async function nodeOf(host: HostName): Promise<IronicNode> {
  return ironic.request<IronicNode>('GET', `/v1/nodes/${encodeURIComponent(`${namespaces[host]}~${host}`)}`);
}

/** Boots into the IPA ramdisk since the test began. */
async function ramdiskBoots(host: HostName): Promise<BootRecord[]> {
  const since = recordsSince(await serverRecords(env, uuidOf(host)), recordsAtStart[host]!);
  return since.boots.filter((boot) => boot.into === 'ramdisk');
}

function hostObjects(host: HostName): unknown[] {
  const system = env.systems[SERVERS[host]]!;
  const namespace = namespaces[host];
  return [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${host}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
    {
      apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: host, namespace },
      spec: {
        online: true, bootMACAddress: system.macs[0], architecture: 'x86_64',
        bmc: { address: system.redfishAddress.replace(/^redfish\+http:/, 'redfish-virtualmedia+http:'), credentialsName: `${host}-bmc` },
      },
    },
  ];
}

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/preprovisioningimages.metal3.io']);
  for (const host of Object.keys(SERVERS) as HostName[]) {
    namespaces[host] = await createUniqueNamespace(kubectl, `e2e-ppimg-${host}`);
    writeIpaFiles(host);
    recordsAtStart[host] = await serverRecords(env, uuidOf(host));
  }
  operators.builtin = startOperatorProcess({
    env, namespace: namespaces.builtin, label: 'e2e-ppimg-builtin', extraEnv: {
      BUILD_PREPROV_IMAGE: 'true',
      // No ISO: the provider offers the initrd, and Ironic builds the boot ISO from it.
      DEPLOY_ISO_URL: '',
      DEPLOY_KERNEL_URL_X86_64: files.builtin.kernelUrl,
      DEPLOY_RAMDISK_BY_ARCH: `aarch64:${env.artifactsUrl}/no-such-arm.initramfs,x86_64:${files.builtin.ramdiskUrl}`,
    },
  });
  operators.external = startOperatorProcess({
    env, namespace: namespaces.external, label: 'e2e-ppimg-external',
    extraEnv: { BUILD_PREPROV_IMAGE: 'true', DEPLOY_ISO_URL: '', DEPLOY_KERNEL_URL: '', DEPLOY_RAMDISK_URL: '' },
  });
  for (const host of Object.keys(SERVERS) as HostName[]) {
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: hostObjects(host) }));
  }
}, minutes(3));

afterAll(async () => {
  for (const host of Object.keys(SERVERS) as HostName[]) {
    await tearDownHostTest({ env, kubectl, namespace: namespaces[host], operator: operators[host] });
  }
}, minutes(8));

describe('PreprovisioningImage', () => {
  it('with the built-in provider: the host\'s image comes from DEPLOY_* for its architecture, and the server boots it', async () => {
    const image = await waitForImage('builtin', (found) => found.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true, 'to be ready');
    expect(image.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'BareMetalHost', name: 'builtin', controller: true })]);
    expect(image.metadata.finalizers).toEqual(expect.arrayContaining([OWNER_FINALIZER, 'preprovisioningimage.metal3.io']));
    expect(image.spec).toEqual({ acceptFormats: ['iso', 'initrd'], architecture: 'x86_64' });
    expect(image.status).toMatchObject({ format: 'initrd', architecture: 'x86_64', imageUrl: files.builtin.ramdiskUrl, kernelUrl: files.builtin.kernelUrl });
    expect(image.status?.conditions).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 'Ready', status: 'True', reason: 'ImageSuccess' }),
      expect.objectContaining({ type: 'Error', status: 'False' }),
    ]));
    const table = await kubectl.ok(['get', 'ppimg', '-n', namespaces.builtin]);
    expect(table.split('\n')[0]).toMatch(/^NAME\s+READY\s+REASON\s+AGE$/);
    expect(table.split('\n')[1]).toMatch(/^builtin\s+True\s+ImageSuccess\s+\S+$/);

    await waitForHost(kubectl, namespaces.builtin, 'builtin', inState('available'), { timeoutMs: minutes(5), failOnError: true });
    const node = await nodeOf('builtin');
    expect(node.driver_info).toMatchObject({ deploy_kernel: files.builtin.kernelUrl, deploy_ramdisk: files.builtin.ramdiskUrl });
    expect(node.driver_info.deploy_iso).toBeUndefined();
    // Inspection booted the ISO Ironic built from exactly that kernel and initramfs.
    const [boot] = await ramdiskBoots('builtin');
    expect(boot).toMatchObject({ bootDevice: 'Cd', media: { kernelSha256: files.builtin.kernelSha256, initrdSha256: files.builtin.ramdiskSha256 } });
  }, minutes(8));

  it('with an external provider: the host waits for the image, then boots what the provider put in its status', async () => {
    const image = await waitForImage('external', (found) => (found.metadata.finalizers ?? []).includes(OWNER_FINALIZER), 'to be created');
    expect(image.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'BareMetalHost', name: 'external', controller: true })]);
    expect(image.spec).toEqual({ acceptFormats: ['iso', 'initrd'], architecture: 'x86_64' });
    // The reconcile that found no image ready says so; no built-in provider touches the image.
    await waitFor(async () => ((await hostEvents(kubectl, namespaces.external, 'external')).some((line) =>
      line.startsWith('WaitingForPreprovisioningImage: waiting for PreprovisioningImage external')) ? true : undefined),
    { timeoutMs: minutes(2), intervalMs: 1_000, what: 'the host to say it waits for its image' });
    const waiting = await nodeOf('external');
    expect(waiting.provision_state).toBe('manageable');
    for (const key of ['deploy_kernel', 'deploy_ramdisk', 'deploy_iso']) expect(waiting.driver_info[key]).toBeUndefined();
    expect((await getHost(kubectl, namespaces.external, 'external'))?.status?.provisioning?.state).toBe('inspecting');
    expect(await ramdiskBoots('external')).toEqual([]);
    expect((await getImage('external'))?.status ?? {}).toEqual({});

    // The test as the image provider: an initrd with its own kernel and kernel parameters.
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const condition = (type: string, status: string) => ({ type, status, reason: 'ImageSuccess', message: 'built by the test', lastTransitionTime: now, observedGeneration: image.metadata.generation });
    await kubectl.ok(['patch', 'ppimg', 'external', '-n', namespaces.external, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: {
      imageUrl: files.external.ramdiskUrl, kernelUrl: files.external.kernelUrl, extraKernelParams: EXTRA_PARAMS,
      format: 'initrd', architecture: 'x86_64', conditions: [condition('Ready', 'True'), condition('Error', 'False')],
    } })]);

    await waitForHost(kubectl, namespaces.external, 'external', inState('available'), { timeoutMs: minutes(5), failOnError: true });
    const node = await nodeOf('external');
    expect(node.driver_info).toMatchObject({
      deploy_kernel: files.external.kernelUrl, deploy_ramdisk: files.external.ramdiskUrl, kernel_append_params: `%default% ${EXTRA_PARAMS}`,
    });
    const [boot, ...others] = await ramdiskBoots('external');
    expect(others).toEqual([]);
    expect(boot).toMatchObject({ bootDevice: 'Cd', media: { kernelSha256: files.external.kernelSha256, initrdSha256: files.external.ramdiskSha256 } });
    expect(boot?.media?.commandLine.split(' ')).toContain(EXTRA_PARAMS);
  }, minutes(9));
});
