import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BootRecord, SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { releaseNodesNamed } from '../../support/release-systems.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { getHost, inState, sushyPowerState, waitForBoot, waitForHost } from './hosts.ts';

// One host whose BMC boots it from virtual media: Ironic's redfish-virtual-media boot interface
// builds a boot ISO from the deploy kernel and ramdisk with mkisofs, embeds a pre-generated agent
// token in its grub.cfg, and has sushy-tools insert it. The agent simulator reads that ISO as the
// server's firmware would and heartbeats with the token from the kernel command line.
// System 3 only: the other e2e file drives systems 0-2.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const credentials = env.bmcCredentials!;
const system = env.systems[3]!;
const minutes = (n: number) => n * 60_000;
const NAME = 'vmedia';

let namespace = '';
let operator: OperatorProcess;

async function records(): Promise<SystemRecords> {
  return (await (await fetch(`${env.agentSimulatorUrl}/records/${system.uuid}`)).json()) as SystemRecords;
}

/**
 * Boots into the IPA ramdisk. Powering the host on once it is available (online: true) also
 * boots from the CD, which Ironic ejected by then: those stay in the firmware and are not counted.
 */
const ramdiskBoots = (all: SystemRecords) => all.boots.filter((boot) => boot.into === 'ramdisk');

function expectBootedFromIronicIso(boot: BootRecord | undefined, nodeId: string | undefined): void {
  expect(boot).toMatchObject({
    bootDevice: 'Cd',
    into: 'ramdisk',
    media: {
      url: `${env.artifactsUrl}/httpboot/redfish/boot-${nodeId}.iso`,
      config: '/EFI/BOOT/grub.cfg',
      kernel: '/vmlinuz',
      agentToken: true,
    },
  });
}

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-vmedia');
  // No DEPLOY_ISO_URL: given a prebuilt IPA ISO, Ironic would boot that instead of building its
  // own from the deploy kernel and ramdisk, and could not put the agent token in it.
  operator = startOperatorProcess({ env, namespace, label: 'e2e-vmedia', extraEnv: { DEPLOY_ISO_URL: '' } });
  const host = {
    apiVersion: 'metal3.io/v1alpha1',
    kind: 'BareMetalHost',
    metadata: { name: NAME, namespace },
    spec: {
      online: true,
      bootMACAddress: system.macs[0],
      bmc: { address: system.redfishAddress.replace(/^redfish\+http:/, 'redfish-virtualmedia+http:'), credentialsName: `${NAME}-bmc` },
    },
  };
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${NAME}-bmc`, namespace }, type: 'Opaque', stringData: credentials };
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [secret, host] }));
}, minutes(2));

afterAll(async () => {
  await operator?.stop();
  if (!namespace) return;
  // After a failure the host's Ironic node would still own system 3's MACs.
  await releaseNodesNamed(env, `${namespace}~`);
  // Objects still here would keep their finalizers forever without the operator.
  await kubectl.run(['delete', 'bmh,secret,hardwaredata', '--all', '-n', namespace, '--wait=false']);
  const left = await kubectl.run(['get', 'bmh,secret,hardwaredata', '-n', namespace, '-o', 'name']);
  for (const name of left.stdout.split('\n').filter(Boolean)) {
    await kubectl.run(['patch', name, '-n', namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  }
  await deleteNamespace(kubectl, namespace);
}, minutes(2));

describe('a redfish-virtualmedia host through its whole life', () => {
  it('registers with the virtual media boot interface and is inspected from an ISO Ironic built', async () => {
    const host = await waitForHost(kubectl, namespace, NAME, inState('available'), { timeoutMs: minutes(5), failOnError: true });
    const nodeId = host.status?.provisioning?.ID;
    expect(host.status?.operationalStatus).toBe('OK');
    expect(host.status?.hardware?.nics?.map((nic) => nic.mac)).toContain(system.macs[0]);
    const node = await ironic.request<{ driver: string; boot_interface: string; driver_info: Record<string, unknown> }>(
      'GET', `/v1/nodes/${nodeId}`);
    expect(node).toMatchObject({ driver: 'redfish', boot_interface: 'redfish-virtual-media' });
    expect(node.driver_info).toMatchObject({ deploy_kernel: `${env.artifactsUrl}/ipa.kernel`, deploy_ramdisk: `${env.artifactsUrl}/ipa.initramfs` });
    expect(node.driver_info.deploy_iso).toBeUndefined();

    const history = await records();
    const [inspectionBoot, ...others] = ramdiskBoots(history);
    expect(others).toEqual([]);
    expectBootedFromIronicIso(inspectionBoot, nodeId);
    expect(inspectionBoot).toMatchObject({
      bootDevice: 'Cd',
      media: { inspectionCallbackUrl: `${env.ironicUrl}/v1/continue_inspection` },
    });
    expect(history.inspections.at(-1)).toMatchObject({ nodeUuid: nodeId, accepted: true });
  }, minutes(6));

  it('provisions the image, written with the right checksum, and boots it from disk', async () => {
    const before = await records();
    await kubectl.ok(['patch', 'bmh', NAME, '-n', namespace, '--type=merge', '-p', JSON.stringify({
      spec: { image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' } },
    })]);
    // Provisioning may start before the available host was powered on; as in BMO, the host
    // reports the power Ironic left it in on its first pass as provisioned, not in the same write.
    const host = await waitForHost(kubectl, namespace, NAME, (h) => inState('provisioned')(h) && h.status?.poweredOn === true,
      { timeoutMs: minutes(6), failOnError: true });
    expect(await sushyPowerState(env, system.uuid)).toBe('On');
    const history = await records();
    expect(history.imageWrites.at(-1)).toMatchObject({
      nodeUuid: host.status?.provisioning?.ID,
      outcome: 'written',
      url: image.url,
      checksum: { algorithm: 'sha256', expected: image.sha256, actual: image.sha256 },
    });
    // Cleaning, then deployment: each from a fresh ISO carrying the API URL and a new token.
    const boots = ramdiskBoots(history).slice(ramdiskBoots(before).length);
    expect(boots.length).toBeGreaterThanOrEqual(2);
    for (const boot of boots) {
      expectBootedFromIronicIso(boot, host.status?.provisioning?.ID);
      expect(boot.media).toMatchObject({ apiUrl: env.ironicUrl, inspectionCallbackUrl: null });
    }
    expect(history.diskWipes.length).toBeGreaterThan(before.diskWipes.length);
    expect(await waitForBoot(env, system.uuid, { before, accept: (boot) => boot.into !== 'ramdisk', what: 'the server to boot after deployment' }))
      .toMatchObject({ bootDevice: 'Hdd', into: 'disk' });
  }, minutes(7));

  it('deprovisions back to available, cleaning the disks from the virtual CD', async () => {
    const before = await records();
    await kubectl.ok(['patch', 'bmh', NAME, '-n', namespace, '--type=json', '-p', JSON.stringify([{ op: 'remove', path: '/spec/image' }])]);
    const host = await waitForHost(kubectl, namespace, NAME, inState('available'), { timeoutMs: minutes(6), failOnError: true });
    expect(host.status?.provisioning?.image?.url ?? '').toBe('');
    const after = await records();
    expect(after.diskWipes.length).toBeGreaterThan(before.diskWipes.length);
    expect(ramdiskBoots(after).length).toBeGreaterThan(ramdiskBoots(before).length);
    expectBootedFromIronicIso(ramdiskBoots(after).at(-1), host.status?.provisioning?.ID);
  }, minutes(7));

  it('deletes the host and its Ironic node', async () => {
    const nodeId = (await getHost(kubectl, namespace, NAME))?.status?.provisioning?.ID;
    await kubectl.ok(['delete', 'bmh', NAME, '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await getHost(kubectl, namespace, NAME)) ? undefined : true), {
      timeoutMs: minutes(3), what: `host ${NAME} to be deleted`,
    });
    const gone = await fetch(`${env.ironicUrl}/v1/nodes/${nodeId}`, { headers: { 'x-openstack-ironic-api-version': '1.95' } });
    expect(gone.status).toBe(404);
  }, minutes(4));
});
