import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import type { RegistryRequestRecord } from '../../../hack/artifacts/oci-registry.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { hostEvents, inState, recordsSince, serverRecords, tearDownHostTest, waitForBoot, waitForHost } from './hosts.ts';

// spec.image variants through real Ironic on emulated servers 74 (virtual media: a live ISO, then
// a custom deploy) and 75 (checksum types and URLs, then an OCI image from the artifacts server's
// registry with a pull Secret). Inspection and cleaning are off: what is proven is the deploy.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const [osImage, osImageV2] = [env.images[0]!, env.images[1]!];
const registry = env.ociRegistry!;
const minutes = (n: number) => n * 60_000;
const LIVE = { name: 'live', system: env.systems[74]! };
const DISK = { name: 'disk', system: env.systems[75]! };

let namespace = '';
let operator: OperatorProcess;
const baseline = new Map<string, SystemRecords>();

interface IronicNodeDetails {
  uuid: string;
  deploy_interface: string;
  instance_info: Record<string, unknown>;
  driver_info: Record<string, unknown>;
}

const nodeOf = async (id: string) => ironic.request<IronicNodeDetails>('GET', `/v1/nodes/${id}`);
const sha512Of = async (url: string) => createHash('sha512').update(Buffer.from(await (await fetch(url)).arrayBuffer())).digest('hex');
const registryRequests = async () => (await (await fetch(registry.requestsUrl)).json()) as RegistryRequestRecord[];

/** What the server went through since this file started. */
const since = async (host: { system: { uuid: string } }) =>
  recordsSince(await serverRecords(env, host.system.uuid), baseline.get(host.system.uuid)!);

function hostManifest(host: { name: string; system: (typeof env.systems)[number] }, spec: Record<string, unknown>, options: { virtualMedia: boolean }) {
  const address = options.virtualMedia
    ? host.system.redfishAddress.replace(/^redfish\+http:/, 'redfish-virtualmedia+http:')
    : host.system.redfishAddress;
  return {
    apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
    metadata: { name: host.name, namespace, annotations: { 'inspect.metal3.io': 'disabled' } },
    spec: {
      online: true, bootMACAddress: host.system.macs[0], automatedCleaningMode: 'disabled',
      bmc: { address, credentialsName: `${host.name}-bmc` }, ...spec,
    },
  };
}

const patchSpec = (name: string, spec: Record<string, unknown>) =>
  kubectl.ok(['patch', 'bmh', name, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec })]);

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-images');
  for (const host of [LIVE, DISK]) baseline.set(host.system.uuid, await serverRecords(env, host.system.uuid));
  // No DEPLOY_ISO_URL: Ironic builds the IPA ISO for virtual media itself (see virtual-media.test.ts).
  operator = startOperatorProcess({ env, namespace, label: 'e2e-images', extraEnv: {
    DEPLOY_ISO_URL: '',
    // BMO's two variables, each reaching the node of its kind of deployment.
    LIVE_ISO_FORCE_PERSISTENT_BOOT_DEVICE: 'Always',
    DIRECT_DEPLOY_FORCE_PERSISTENT_BOOT_DEVICE: 'Never',
  } });
  const bmcSecret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: [
      bmcSecret(LIVE.name), bmcSecret(DISK.name),
      // User data a disk image would get in its config drive; a live ISO must get none.
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'live-user-data', namespace }, type: 'Opaque', stringData: { userData: '#cloud-config\n' } },
      hostManifest(LIVE, {
        image: { url: `${env.artifactsUrl}/images/live-os.iso`, format: 'live-iso' },
        userData: { name: 'live-user-data', namespace },
      }, { virtualMedia: true }),
      hostManifest(DISK, {
        image: { url: osImage.url, checksum: await sha512Of(osImage.url), checksumType: 'sha512', format: 'raw' },
      }, { virtualMedia: false }),
    ],
  }));
}, minutes(2));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('image variants on real Ironic', () => {
  it('live-iso: the ramdisk deploy interface boots the ISO over virtual media; nothing is written, no config drive', async () => {
    const host = await waitForHost(kubectl, namespace, LIVE.name, inState('provisioned'), { timeoutMs: minutes(6), failOnError: true });
    const node = await nodeOf(host.status!.provisioning!.ID!);
    expect(node.deploy_interface).toBe('ramdisk');
    expect(node.instance_info).toMatchObject({ boot_iso: `${env.artifactsUrl}/images/live-os.iso` });
    expect(node.instance_info).not.toHaveProperty('image_source');
    expect(node.instance_info).not.toHaveProperty('configdrive');
    expect(node.driver_info.force_persistent_boot_device).toBe('Always');
    const liveBoot = await waitForBoot(env, LIVE.system.uuid,
      { before: baseline.get(LIVE.system.uuid)!, accept: (boot) => boot.into === 'live-os', what: 'the server to boot the live ISO' });
    expect(liveBoot).toMatchObject({ bootDevice: 'Cd', media: expect.objectContaining({ kernel: '/vmlinuz', agentToken: false }) });
    expect((await since(LIVE)).imageWrites).toEqual([]);
  }, minutes(7));

  it('customDeploy: the custom-agent deploy interface runs the ramdisk\'s custom deploy step instead of writing an image', async () => {
    await patchSpec(LIVE.name, { image: null, userData: null, customDeploy: { method: 'install_coreos' } });
    // Provisioned with the custom deploy, not still provisioned with the ISO before the operator saw the change.
    const host = await waitForHost(kubectl, namespace, LIVE.name,
      (h) => inState('provisioned')(h) && h.status?.provisioning?.customDeploy?.method === 'install_coreos', { timeoutMs: minutes(8), failOnError: true });
    const node = await nodeOf(host.status!.provisioning!.ID!);
    expect(node.deploy_interface).toBe('custom-agent');
    expect(node.instance_info).not.toHaveProperty('boot_iso');
    const records = await since(LIVE);
    expect(records.customDeploySteps).toEqual([
      expect.objectContaining({ nodeUuid: node.uuid, step: 'install_coreos', device: '/dev/sda' }),
    ]);
    expect(records.imageWrites).toEqual([]);
  }, minutes(9));

  it('checksums: a sha512 value and a checksum file URL (auto) are verified and written; a wrong checksum fails clearly', async () => {
    const first = await waitForHost(kubectl, namespace, DISK.name, inState('provisioned'), { timeoutMs: minutes(5), failOnError: true });
    expect(first.status?.provisioning?.image).toMatchObject({ checksumType: 'sha512' });
    expect((await nodeOf(first.status!.provisioning!.ID!)).driver_info.force_persistent_boot_device).toBe('Never');
    expect((await since(DISK)).imageWrites).toEqual([
      expect.objectContaining({ outcome: 'written', url: osImage.url, checksum: expect.objectContaining({ algorithm: 'sha512', actual: await sha512Of(osImage.url) }) }),
    ]);

    await patchSpec(DISK.name, { image: { url: osImageV2.url, checksum: '0'.repeat(128), checksumType: 'sha512', format: 'raw' } });
    const failed = await waitForHost(kubectl, namespace, DISK.name, (h) => h.status?.errorType === 'provisioning error', { timeoutMs: minutes(6) });
    expect(failed.status?.errorMessage).toContain(`Image provisioning failed (url: ${osImageV2.url}, checksum: ${'0'.repeat(128)})`);
    expect(failed.status?.errorMessage).toMatch(/checksum/i);
    expect((await since(DISK)).imageWrites.at(-1)).toMatchObject({ outcome: 'failed', url: osImageV2.url });
    expect(await hostEvents(kubectl, namespace, DISK.name)).toContainEqual(expect.stringMatching(/^ProvisioningError: Image provisioning failed/));

    await patchSpec(DISK.name, { image: { url: osImageV2.url, checksum: `${osImageV2.url}.sha512sum`, checksumType: 'auto', format: 'raw' } });
    await waitForHost(kubectl, namespace, DISK.name,
      (h) => inState('provisioned')(h) && h.status?.provisioning?.image?.url === osImageV2.url, { timeoutMs: minutes(6) });
    expect((await since(DISK)).imageWrites.at(-1)).toMatchObject({
      outcome: 'written', url: osImageV2.url, checksum: expect.objectContaining({ algorithm: 'sha512', actual: await sha512Of(osImageV2.url) }),
    });
  }, minutes(18));

  it('OCI: the pull Secret\'s credentials reach the registry through Ironic; a Secret of the wrong type is a clear error', async () => {
    const registryHost = registry.image.replace(/^oci:\/\//, '').split('/')[0]!;
    const dockerConfig = { auths: { [registryHost]: { auth: Buffer.from(`${registry.credentials.username}:${registry.credentials.password}`).toString('base64') } } };
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'List', items: [
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'pull-opaque', namespace }, type: 'Opaque', stringData: { '.dockerconfigjson': JSON.stringify(dockerConfig) } },
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'pull', namespace }, type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': JSON.stringify(dockerConfig) } },
      ],
    }));
    const requestsBefore = (await registryRequests()).length;

    // A merge patch keeps fields it does not name: the checksum of the previous image must go (OCI images carry their own).
    await patchSpec(DISK.name, { image: { url: registry.image, format: 'raw', ociAuthSecretName: 'pull-opaque', checksum: null, checksumType: null } });
    const refused = await waitForHost(kubectl, namespace, DISK.name, (h) => h.status?.errorType === 'provisioning error', { timeoutMs: minutes(5) });
    expect(refused.status?.errorMessage).toBe(
      'secret "pull-opaque" has unsupported type "Opaque" (expected kubernetes.io/dockerconfigjson or kubernetes.io/dockercfg)');
    const events = await hostEvents(kubectl, namespace, DISK.name);
    expect(events).toContainEqual(expect.stringMatching(/^ImageAuthFormatUnsupported: secret "pull-opaque" has unsupported type/));
    expect(events).toContainEqual(expect.stringMatching(/^ProvisioningError: secret "pull-opaque"/));

    await patchSpec(DISK.name, { image: { url: registry.image, format: 'raw', ociAuthSecretName: 'pull', checksum: null, checksumType: null } });
    const host = await waitForHost(kubectl, namespace, DISK.name,
      (h) => inState('provisioned')(h) && h.status?.provisioning?.image?.url === registry.image, { timeoutMs: minutes(6) });
    const written = (await since(DISK)).imageWrites.at(-1);
    expect(written).toMatchObject({
      outcome: 'written', requestAuthorization: true,
      url: expect.stringContaining(`/v2/metal3/test-os/blobs/sha256:${osImage.sha256}`),
      checksum: expect.objectContaining({ actual: osImage.sha256 }),
    });
    const requests = (await registryRequests()).slice(requestsBefore);
    // Ironic resolved the tag with the credentials, and the ramdisk downloaded the blob with them.
    expect(requests).toContainEqual(expect.objectContaining({ path: '/v2/metal3/test-os/tags/list', status: 200, user: registry.credentials.username }));
    expect(requests).toContainEqual(expect.objectContaining({
      method: 'GET', path: `/v2/metal3/test-os/blobs/sha256:${osImage.sha256}`, status: 200, user: registry.credentials.username,
    }));
    expect(requests.filter((request) => request.wrongCredentials)).toEqual([]);
    // Ironic keeps the credentials in instance_info and masks them in its API.
    const node = await nodeOf(host.status!.provisioning!.ID!);
    expect(node.instance_info['image_pull_secret']).toBe('******');
    // Never in the operator's log, the host's status or its events.
    const password = registry.credentials.password;
    expect(readFileSync(operator.process.logPath, 'utf8')).not.toContain(password);
    expect(JSON.stringify(host)).not.toContain(password);
    expect((await hostEvents(kubectl, namespace, DISK.name)).join('\n')).not.toContain(password);
  }, minutes(12));
});
