import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { startOperator } from './operator-under-test.ts';
import type { OperatorUnderTest } from './operator-under-test.ts';

// The integration project's testTimeout is not applied per project by jest 30; set it here.
jest.setTimeout(180_000);

const CRD_NAMES = ['baremetalhosts.metal3.io', 'hardwaredata.metal3.io'];
// Emulated server 33 is this file's (see test/support/test-stack.ts).
const SERVER = 33;

interface Host {
  metadata: { name: string; finalizers?: string[]; annotations?: Record<string, string> };
  spec: { architecture?: string };
  status?: {
    operationalStatus?: string;
    errorType?: string;
    errorMessage?: string;
    provisioning?: { state?: string; ID?: string; image?: { url: string } };
    goodCredentials?: { credentialsVersion?: string };
    operationHistory?: Record<string, { start?: string; end?: string }>;
    conditions?: Array<{ type: string; status: string }>;
  };
}

interface ObjectMeta {
  metadata: {
    labels?: Record<string, string>;
    finalizers?: string[];
    ownerReferences?: Array<{ kind: string; name: string; controller?: boolean }>;
  };
}

describe('BareMetalHost controller on the real API server (fixture provisioner)', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  const image = env.images[0]!;
  let namespace = '';
  let installedCrds = false;
  let operator: OperatorUnderTest;

  const apply = (objects: unknown[]) => kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));

  const bmcSecret = (name: string, data: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace },
    type: 'Opaque',
    stringData: data,
  });

  const bareMetalHost = (name: string, spec: Record<string, unknown> = {}, annotations: Record<string, string> = {}) => ({
    apiVersion: 'metal3.io/v1alpha1',
    kind: 'BareMetalHost',
    metadata: { name, namespace, annotations },
    spec: {
      online: true,
      bootMACAddress: env.systems[SERVER]!.macs[0],
      bmc: { address: env.systems[SERVER]!.redfishAddress, credentialsName: `${name}-bmc` },
      ...spec,
    },
  });

  const getHost = (name: string) => kubectl.json<Host>(['get', 'bmh', name, '-n', namespace]);

  const waitForHost = (name: string, what: string, check: (host: Host) => boolean, timeoutMs = 60_000) =>
    waitFor(async () => {
      const host = await getHost(name);
      return check(host) ? host : undefined;
    }, { timeoutMs, intervalMs: 250, what: `${name} ${what}` });

  const waitForState = (name: string, state: string) => waitForHost(name, `to be ${state}`, (host) => host.status?.provisioning?.state === state);

  const eventReasons = async (name: string): Promise<string[]> => {
    const list = await kubectl.json<{ items: Array<{ reason: string; reportingComponent?: string }> }>([
      'get', 'events', '-n', namespace, '--field-selector', `involvedObject.name=${name}`,
    ]);
    return list.items.map((event) => event.reason);
  };

  beforeAll(async () => {
    installedCrds = (await kubectl.run(['get', 'crd', ...CRD_NAMES, '-o', 'name'])).code !== 0;
    // Server-side apply: the BMH CRD is too large for client-side apply's last-applied annotation.
    await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
    await kubectl.ok(['wait', '--for=condition=Established', '--timeout=60s', ...CRD_NAMES.map((name) => `crd/${name}`)]);
    namespace = await createUniqueNamespace(kubectl, 'bmh');
    operator = startOperator(env, namespace);
  });

  afterAll(async () => {
    await operator?.stop();
    if (namespace) {
      // The test API server has no garbage collector: drop what the controller left holding on.
      for (const kind of ['baremetalhosts', 'hardwaredata', 'secrets']) {
        const names = (await kubectl.ok(['get', kind, '-n', namespace, '-o', 'name'])).split('\n').filter(Boolean);
        for (const name of names) await kubectl.run(['patch', name, '-n', namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
      }
      await kubectl.ok(['delete', 'baremetalhosts,hardwaredata,secrets', '--all', '-n', namespace, '--wait=false']);
      await deleteNamespace(kubectl, namespace);
    }
    if (installedCrds) await kubectl.ok(['delete', 'crd', ...CRD_NAMES, '--wait=false']);
    kubectl.dispose();
  });

  it('registers, inspects and prepares a host until it is available', async () => {
    await apply([bmcSecret('host-a-bmc', { username: 'admin', password: 'metal3-ts-bmc' }), bareMetalHost('host-a')]);
    const host = await waitForState('host-a', 'available');
    expect(host.metadata.finalizers).toContain('baremetalhost.metal3.io');
    expect(host.status).toMatchObject({ operationalStatus: 'OK', provisioning: { ID: expect.stringMatching(/^fixture-/) } });
    expect(host.status?.operationHistory?.register?.end).toBeTruthy();
    expect(host.status?.operationHistory?.inspect?.end).toBeTruthy();
    expect(host.status?.conditions?.find((c) => c.type === 'AvailableForProvisioning')?.status).toBe('True');
    // Architecture comes back from the HardwareData the inspection wrote.
    await waitForHost('host-a', 'to get its architecture', (h) => h.spec.architecture === 'x86_64');
  });

  it('creates HardwareData owned by the host, with its finalizer', async () => {
    const data = await kubectl.json<ObjectMeta & { spec: { hardware?: { ramMebibytes?: number } } }>(['get', 'hardwaredata', 'host-a', '-n', namespace]);
    expect(data.spec.hardware?.ramMebibytes).toBe(128 * 1024);
    expect(data.metadata.finalizers).toEqual(['baremetalhost.metal3.io/hardwareData']);
    expect(data.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'BareMetalHost', name: 'host-a', controller: true })]);
  });

  it('claims the credentials Secret: label, owner reference, finalizer', async () => {
    const secret = await kubectl.json<ObjectMeta>(['get', 'secret', 'host-a-bmc', '-n', namespace]);
    expect(secret.metadata.labels).toMatchObject({ 'environment.metal3.io': 'baremetal' });
    expect(secret.metadata.finalizers).toEqual(['baremetalhost.metal3.io/secret']);
    expect(secret.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'BareMetalHost', name: 'host-a' })]);
    expect(secret.metadata.ownerReferences?.[0]?.controller).toBeUndefined();
  });

  it('publishes BMO events from metal3-baremetal-controller', async () => {
    const reasons = await eventReasons('host-a');
    expect(reasons).toEqual(expect.arrayContaining(['Registered', 'BMCAccessValidated', 'InspectionStarted', 'InspectionComplete']));
    const components = await kubectl.ok(['get', 'events', '-n', namespace, '-o', 'jsonpath={.items[*].reportingComponent}']);
    expect(new Set(components.trim().split(/\s+/))).toEqual(new Set(['metal3-baremetal-controller']));
  });

  it('shows the state in `kubectl get bmh`', async () => {
    const table = await kubectl.ok(['get', 'bmh', 'host-a', '-n', namespace]);
    const [header, row] = table.trim().split('\n').map((line) => line.trim().split(/\s+/));
    expect(header).toEqual(['NAME', 'STATE', 'CONSUMER', 'ONLINE', 'ERROR', 'AGE']);
    expect(row?.slice(0, 3)).toEqual(['host-a', 'available', 'true']);
    const wide = (await kubectl.ok(['get', 'bmh', 'host-a', '-n', namespace, '-o', 'wide', '--no-headers'])).trim().split(/\s+/);
    expect(wide.slice(0, 3)).toEqual(['host-a', 'OK', 'available']);
  });

  it('provisions an image, then deprovisions when it is removed', async () => {
    const spec = { image: { url: image.url, checksum: image.sha256, checksumType: 'sha256', format: 'raw' } };
    await kubectl.ok(['patch', 'bmh', 'host-a', '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec })]);
    const provisioned = await waitForState('host-a', 'provisioned');
    expect(provisioned.status?.provisioning?.image?.url).toBe(image.url);
    expect(operator.fixture.host({ namespace, name: 'host-a' }).image?.url).toBe(image.url);

    await kubectl.ok(['patch', 'bmh', 'host-a', '-n', namespace, '--type=json', '-p', '[{"op":"remove","path":"/spec/image"}]']);
    const available = await waitForState('host-a', 'available');
    expect(available.status?.provisioning?.image).toBeUndefined();
    expect(await eventReasons('host-a')).toEqual(
      expect.arrayContaining(['ProvisioningStarted', 'ProvisioningComplete', 'DeprovisioningStarted', 'DeprovisioningComplete']),
    );
  });

  it('records bad credentials and recovers when the claimed Secret is fixed', async () => {
    await apply([bmcSecret('host-b-bmc', { username: 'admin' }), bareMetalHost('host-b')]);
    const failing = await waitForHost('host-b', 'to record a registration error', (h) => h.status?.errorType === 'registration error');
    expect(failing.status).toMatchObject({
      operationalStatus: 'error',
      errorMessage: "Validation error with BMC credentials: Missing BMC connection details 'password' in credentials",
      provisioning: { state: 'registering' },
    });
    expect(await eventReasons('host-b')).toContain('BMCCredentialError');
    // No polling for this error: the fix itself (a watched Secret) wakes the host.
    await kubectl.ok(['patch', 'secret', 'host-b-bmc', '-n', namespace, '--type=merge', '-p', JSON.stringify({ stringData: { password: 'metal3-ts-bmc' } })]);
    const fixed = await waitForState('host-b', 'available');
    expect(fixed.status?.operationalStatus).toBe('OK');
  });

  it('leaves a paused host alone until the annotation is removed', async () => {
    await apply([bmcSecret('host-c-bmc', { username: 'admin', password: 'metal3-ts-bmc' }), bareMetalHost('host-c', {}, { 'baremetalhost.metal3.io/paused': '' })]);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await getHost('host-c')).status).toBeUndefined();
    await kubectl.ok(['annotate', 'bmh', 'host-c', '-n', namespace, 'baremetalhost.metal3.io/paused-']);
    await waitForState('host-c', 'available');
  });

  it('does not record transient provisioner failures', async () => {
    operator.simulateOutage(3);
    await apply([bmcSecret('host-d-bmc', { username: 'admin', password: 'metal3-ts-bmc' }), bareMetalHost('host-d')]);
    const host = await waitForState('host-d', 'available');
    expect(host.status?.errorType).toBeUndefined();
    expect(await eventReasons('host-d')).not.toContain('RegistrationError');
  });

  it('detaches a host without deprovisioning, and takes it back when the annotation goes', async () => {
    const annotation = 'baremetalhost.metal3.io/detached';
    await kubectl.ok(['annotate', 'bmh', 'host-a', '-n', namespace, `${annotation}=`]);
    await waitForHost('host-a', 'to be detached', (h) => h.status?.operationalStatus === 'detached');
    expect(operator.fixture.host({ namespace, name: 'host-a' }).nodeId).toBeUndefined();
    expect((await getHost('host-a')).status?.provisioning?.state).toBe('available');
    await kubectl.ok(['annotate', 'bmh', 'host-a', '-n', namespace, `${annotation}-`]);
    await waitForHost('host-a', 'to be back', (h) => h.status?.operationalStatus === 'OK');
    await waitFor(async () => operator.fixture.host({ namespace, name: 'host-a' }).nodeId, { timeoutMs: 30_000, what: 'host-a to be registered again' });
  });

  it('restores the status of a pivoted host from the status annotation, skipping inspection', async () => {
    const annotation = 'baremetalhost.metal3.io/status';
    const saved = { operationalStatus: 'OK', errorMessage: '', poweredOn: false, provisioning: { state: 'available', ID: '' }, hardware: { ramMebibytes: 2048 } };
    await apply([bmcSecret('host-e-bmc', { username: 'admin', password: 'metal3-ts-bmc' }), bareMetalHost('host-e', {}, { [annotation]: JSON.stringify(saved) })]);
    const host = await waitForHost('host-e', 'to lose the status annotation', (h) => h.status !== undefined && !(annotation in (h.metadata.annotations ?? {})));
    expect(host.status?.provisioning?.state).toBe('available');
    await waitForHost('host-e', 'to be registered', (h) => (h.status?.provisioning?.ID ?? '') !== '');
    expect(await eventReasons('host-e')).not.toContain('InspectionStarted');
  });

  it('exports metal3_* metrics', async () => {
    const port = operator.manager.serverAddress('metrics')?.port;
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(text).toMatch(/metal3_hosts\{state="available",operational_status="OK"\} [1-9]/);
    expect(text).toContain('metal3_provisioning_state_change_total{prev_state="provisioning",new_state="provisioned"} 1');
    expect(text).toMatch(/metal3_reconcile_total\{namespace="[^"]+",host="host-a"\} \d+/);
    expect(text).toContain('metal3_credentials_invalid_total');
  });

  it('deletes a host: deprovisions, removes the node, releases Secret and HardwareData', async () => {
    const spec = { image: { url: image.url, checksum: image.sha256, checksumType: 'sha256' } };
    await kubectl.ok(['patch', 'bmh', 'host-b', '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec })]);
    await waitForState('host-b', 'provisioned');
    await kubectl.ok(['delete', 'bmh', 'host-b', '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await kubectl.run(['get', 'bmh', 'host-b', '-n', namespace])).code !== 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: 'host-b to be gone',
    });
    expect(operator.fixture.host({ namespace, name: 'host-b' }).nodeId).toBeUndefined();
    const secret = await kubectl.json<ObjectMeta>(['get', 'secret', 'host-b-bmc', '-n', namespace]);
    expect(secret.metadata.finalizers ?? []).toEqual([]);
    const data = await kubectl.json<ObjectMeta>(['get', 'hardwaredata', 'host-b', '-n', namespace]);
    expect(data.metadata.finalizers ?? []).toEqual([]);
    expect(await eventReasons('host-b')).toEqual(expect.arrayContaining(['DeprovisioningStarted', 'DeprovisioningComplete']));
  });
});
