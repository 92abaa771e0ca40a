import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { releaseNodesNamed } from '../../support/release-systems.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { getHost, inState, waitForHost } from './hosts.ts';

// The operator binary against the real stack: kube-apiserver, Ironic, sushy-tools' Redfish
// BMCs, the agent simulator as each server's ramdisk, and pyghmi's IPMI BMC. Several hosts
// run at once, each proving one story; the tests then look at one host each.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const credentials = env.bmcCredentials!;
const run = promisify(execFile);
const minutes = (n: number) => n * 60_000;

let namespace = '';
let operator: OperatorProcess;
let restarts = 0;
const operatorLogs: string[] = [];

const secret = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', stringData: data,
});

const host = (name: string, spec: Record<string, unknown>, annotations: Record<string, string> = {}) => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace, annotations }, spec,
});

const redfishHost = (name: string, systemIndex: number, extra: Record<string, unknown> = {}) => {
  const system = env.systems[systemIndex]!;
  return host(name, {
    online: true,
    bootMACAddress: system.macs[0],
    bmc: { address: system.redfishAddress, credentialsName: `${name}-bmc` },
    ...extra,
  });
};

async function apply(objects: unknown[]): Promise<void> {
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
}

async function records(systemIndex: number): Promise<SystemRecords> {
  return (await (await fetch(`${env.agentSimulatorUrl}/records/${env.systems[systemIndex]!.uuid}`)).json()) as SystemRecords;
}

async function ironicNodesNamed(name: string): Promise<{ uuid: string; name: string; driver: string }[]> {
  const { nodes } = await ironic.request<{ nodes: { uuid: string; name: string; driver: string }[] }>(
    'GET', '/v1/nodes?fields=uuid,name,driver');
  return nodes.filter((node) => node.name === name);
}

function restartOperator(): void {
  restarts += 1;
  // A short deletion deadline, so the test of a host whose BMC stops answering ends in minutes.
  operator = startOperatorProcess({ env, namespace, label: `e2e-${restarts}`, extraEnv: { DELETION_TIMEOUT: '60s' } });
  operatorLogs.push(operator.process.logPath);
}

async function eventReasons(name: string): Promise<string[]> {
  const out = await kubectl.ok(['get', 'events', '-n', namespace, '--field-selector', `involvedObject.name=${name}`,
    '-o', 'jsonpath={range .items[*]}{.reason}{"\\n"}{end}']);
  return out.split('\n').filter(Boolean);
}

async function waitUntilDeleted(name: string, timeoutMs: number): Promise<void> {
  await waitFor(async () => ((await getHost(kubectl, namespace, name)) ? undefined : true), { timeoutMs, what: `host ${name} to be deleted` });
}

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-bmh');
  restartOperator();
  await apply([
    secret('good-bmc', credentials),
    secret('user-data', { userData: '#cloud-config\nhostname: good\n' }),
    redfishHost('good', 0),
    secret('bad-checksum-bmc', credentials),
    redfishHost('bad-checksum', 1, {
      image: { url: image.url, checksum: '0'.repeat(64), checksumType: 'sha256', format: 'raw' },
      automatedCleaningMode: 'disabled',
    }),
    secret('bad-creds-bmc', { username: credentials.username, password: 'not-the-password' }),
    redfishHost('bad-creds', 2),
    secret('ipmi-bmc', env.ipmiBmc.credentials),
    host('no-secret', { online: true, bmc: { address: env.systems[0]!.redfishAddress, credentialsName: 'does-not-exist' } }),
    secret('unreachable-bmc', credentials),
    host('unreachable', {
      online: true,
      bootMACAddress: '00:5a:91:ee:ee:01',
      // Port 9 (discard) on loopback: nothing listens, so every BMC call is refused.
      bmc: { address: 'redfish+http://127.0.0.1:9/redfish/v1/Systems/nothing-here', credentialsName: 'unreachable-bmc' },
    }),
    host('ipmi', {
      online: false,
      bootMACAddress: env.ipmiBmc.bootMacAddress,
      bmc: { address: env.ipmiBmc.address, credentialsName: 'ipmi-bmc' },
    }, { 'inspect.metal3.io': 'disabled' }),
  ]);
}, minutes(2));

afterAll(async () => {
  if (namespace) {
    // Let the operator delete what is left, as a user would; then clear anything it could not.
    await kubectl.run(['delete', 'bmh', '--all', '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await kubectl.run(['get', 'bmh', '-n', namespace, '-o', 'name'])).stdout.trim() ? undefined : true),
      { timeoutMs: minutes(2), what: 'hosts to be deleted' }).catch(() => undefined);
  }
  await operator?.stop();
  if (!namespace) return;
  await releaseNodesNamed(env, `${namespace}~`);
  // Hosts still here would keep their finalizers forever without the operator.
  const left = await kubectl.run(['get', 'bmh', '-n', namespace, '-o', 'name']);
  for (const name of left.stdout.split('\n').filter(Boolean)) {
    await kubectl.run(['patch', name, '-n', namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  }
  await kubectl.run(['delete', 'bmh,secret,hardwaredata', '--all', '-n', namespace, '--wait=false']);
  const secrets = await kubectl.run(['get', 'secret,hardwaredata', '-n', namespace, '-o', 'name']);
  for (const name of secrets.stdout.split('\n').filter(Boolean)) {
    await kubectl.run(['patch', name, '-n', namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  }
  await deleteNamespace(kubectl, namespace);
}, minutes(5));

describe('the operator against real Ironic and emulated hardware', () => {
  it('registers, inspects and cleans a Redfish host until it is available with its hardware', async () => {
    const good = await waitForHost(kubectl, namespace, 'good', inState('available'), { timeoutMs: minutes(5), failOnError: true });
    expect(good.status?.operationalStatus).toBe('OK');
    expect(good.status?.provisioning?.ID).toMatch(/^[0-9a-f-]{36}$/);
    const hardware = good.status?.hardware;
    expect(hardware?.cpu?.arch).toBe('x86_64');
    expect(hardware?.ramMebibytes).toBeGreaterThan(0);
    expect(hardware?.nics?.map((nic) => nic.mac)).toContain(env.systems[0]!.macs[0]);
    expect(hardware?.storage?.length).toBeGreaterThan(0);
    expect((await records(0)).inspections.at(-1)).toMatchObject({ nodeUuid: good.status?.provisioning?.ID, accepted: true });
    const hardwareData = JSON.parse(await kubectl.ok(['get', 'hardwaredata', 'good', '-n', namespace, '-o', 'json'])) as {
      spec: { hardware: unknown };
    };
    expect(hardwareData.spec.hardware).toEqual(hardware);
    expect((await getHost(kubectl, namespace, 'good'))?.spec.architecture).toBe('x86_64');
  }, minutes(6));

  it('shows BMO columns in kubectl and namespace~name nodes in the baremetal CLI', async () => {
    const table = await kubectl.ok(['get', 'bmh', '-n', namespace]);
    expect(table.split('\n')[0]!.trim().split(/\s+/)).toEqual(['NAME', 'STATE', 'CONSUMER', 'ONLINE', 'ERROR', 'AGE']);
    expect(table).toMatch(/\ngood\s+available\s+true\s/);
    const { stdout } = await run(env.baremetal, ['node', 'list', '-f', 'value', '-c', 'Name'], {
      env: { ...process.env, OS_AUTH_TYPE: 'none', OS_ENDPOINT: env.ironicUrl },
    });
    expect(stdout.trim().split('\n')).toEqual(expect.arrayContaining([`${namespace}~good`, `${namespace}~ipmi`]));
  });

  it('provisions the image, even when the operator is killed mid-way, without a second Ironic node', async () => {
    await kubectl.ok(['patch', 'bmh', 'good', '-n', namespace, '--type=merge', '-p', JSON.stringify({
      spec: {
        image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' },
        userData: { name: 'user-data', namespace },
      },
    })]);
    await waitForHost(kubectl, namespace, 'good', inState('provisioning'), { timeoutMs: minutes(1), failOnError: true });
    await operator.kill();
    restartOperator();
    // status.poweredOn is read from Ironic by the pass after the one that records `provisioned` (as in BMO).
    const good = await waitForHost(kubectl, namespace, 'good', (host) => inState('provisioned')(host) && host.status?.poweredOn === true,
      { timeoutMs: minutes(6), failOnError: true });
    expect(good.status?.provisioning?.image?.url).toBe(image.url);
    const write = (await records(0)).imageWrites.at(-1);
    expect(write).toMatchObject({
      nodeUuid: good.status?.provisioning?.ID,
      outcome: 'written',
      url: image.url,
      checksum: { algorithm: 'sha256', expected: image.sha256, actual: image.sha256 },
      configDrive: { written: true },
    });
    expect(await ironicNodesNamed(`${namespace}~good`)).toHaveLength(1);
    const node = await ironic.request<{ instance_uuid: string; provision_state: string }>(
      'GET', `/v1/nodes/${good.status?.provisioning?.ID}`);
    expect(node).toMatchObject({ instance_uuid: good.metadata.uid, provision_state: 'active' });
  }, minutes(8));

  it('deprovisions back to available when the image is cleared, cleaning the disks', async () => {
    const wipesBefore = (await records(0)).diskWipes.length;
    await kubectl.ok(['patch', 'bmh', 'good', '-n', namespace, '--type=json', '-p', JSON.stringify([
      { op: 'remove', path: '/spec/image' },
      { op: 'remove', path: '/spec/userData' },
    ])]);
    await waitForHost(kubectl, namespace, 'good', inState('deprovisioning'), { timeoutMs: minutes(1), failOnError: true });
    const good = await waitForHost(kubectl, namespace, 'good', inState('available'), { timeoutMs: minutes(5), failOnError: true });
    expect(good.status?.provisioning?.image?.url ?? '').toBe('');
    expect((await records(0)).diskWipes.length).toBeGreaterThan(wipesBefore);
  }, minutes(7));

  it('deletes the host and its Ironic node', async () => {
    const nodeId = (await getHost(kubectl, namespace, 'good'))?.status?.provisioning?.ID;
    await kubectl.ok(['delete', 'bmh', 'good', '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await getHost(kubectl, namespace, 'good')) ? undefined : true), {
      timeoutMs: minutes(3), what: 'host good to be deleted',
    });
    const gone = await fetch(`${env.ironicUrl}/v1/nodes/${nodeId}`, { headers: { 'x-openstack-ironic-api-version': '1.95' } });
    expect(gone.status).toBe(404);
    const secretAfter = JSON.parse(await kubectl.ok(['get', 'secret', 'good-bmc', '-n', namespace, '-o', 'json'])) as {
      metadata: { finalizers?: string[] };
    };
    expect(secretAfter.metadata.finalizers ?? []).not.toContain('baremetalhost.metal3.io/secret');
  }, minutes(4));

  it('reports a wrong image checksum as a provisioning error naming the image and Ironic\'s message', async () => {
    const bad = await waitForHost(kubectl, namespace, 'bad-checksum',
      (candidate) => candidate.status?.errorType === 'provisioning error', { timeoutMs: minutes(6) });
    expect(bad.status?.operationalStatus).toBe('error');
    expect(bad.status?.errorMessage).toContain(image.url);
    expect(bad.status?.errorMessage).toMatch(/[Cc]hecksum/);
    expect((await records(1)).imageWrites.at(-1)).toMatchObject({ outcome: 'failed', url: image.url });
    expect(await eventReasons('bad-checksum')).toContain('ProvisioningError');
  }, minutes(7));

  it('reports bad BMC credentials as a registration error that clears when the Secret is fixed', async () => {
    const bad = await waitForHost(kubectl, namespace, 'bad-creds',
      (candidate) => candidate.status?.errorType === 'registration error', { timeoutMs: minutes(3) });
    expect(bad.status?.operationalStatus).toBe('error');
    expect(bad.status?.errorMessage).not.toContain('not-the-password');
    await apply([secret('bad-creds-bmc', credentials)]);
    const fixed = await waitForHost(kubectl, namespace, 'bad-creds',
      (candidate) => !candidate.status?.errorType && ['inspecting', 'preparing', 'available'].includes(candidate.status?.provisioning?.state ?? ''),
      { timeoutMs: minutes(4) });
    expect(fixed.status?.operationalStatus).toBe('OK');
  }, minutes(8));

  it('registers an ipmi:// host with the ipmi driver and BMO\'s driver_info against an IPMI BMC on loopback', async () => {
    const ipmi = await waitForHost(kubectl, namespace, 'ipmi', inState('available'), { timeoutMs: minutes(3), failOnError: true });
    const node = await ironic.request<{ driver: string; driver_info: Record<string, unknown>; power_state: string }>(
      'GET', `/v1/nodes/${ipmi.status?.provisioning?.ID}`);
    const port = new URL(env.ipmiBmc.address.replace('ipmi://', 'http://')).port;
    expect(node.driver).toBe('ipmi');
    expect(node.driver_info).toMatchObject({
      ipmi_address: '127.0.0.1',
      ipmi_port: port,
      ipmi_username: env.ipmiBmc.credentials.username,
      ipmi_priv_level: 'ADMINISTRATOR',
    });
    expect(node.driver_info.ipmi_password).toBe('******');
    expect(node.power_state).toBe('power off');
  }, minutes(4));

  it('deletes hosts whose credentials Secret is missing or whose BMC never answers', async () => {
    const noSecret = await waitForHost(kubectl, namespace, 'no-secret',
      (candidate) => candidate.status?.errorType === 'registration error', { timeoutMs: minutes(2) });
    expect(noSecret.status?.errorMessage).toContain(`${namespace}/does-not-exist`);
    const unreachable = await waitForHost(kubectl, namespace, 'unreachable',
      (candidate) => candidate.status?.errorType === 'registration error', { timeoutMs: minutes(3) });
    expect(unreachable.status?.operationalStatus).toBe('error');
    await kubectl.ok(['delete', 'bmh', 'no-secret', 'unreachable', '-n', namespace, '--wait=false']);
    await waitUntilDeleted('no-secret', minutes(2));
    await waitUntilDeleted('unreachable', minutes(2));
    expect(await ironicNodesNamed(`${namespace}~unreachable`)).toHaveLength(0);
  }, minutes(6));

  it('finishes deleting a host whose BMC stopped accepting its credentials, and says so in an event', async () => {
    await waitForHost(kubectl, namespace, 'bad-creds', inState('available'), { timeoutMs: minutes(4), failOnError: true });
    const nodeId = (await getHost(kubectl, namespace, 'bad-creds'))?.status?.provisioning?.ID;
    await apply([secret('bad-creds-bmc', { username: credentials.username, password: 'changed-behind-our-back' })]);
    await kubectl.ok(['delete', 'bmh', 'bad-creds', '-n', namespace, '--wait=false']);
    await waitUntilDeleted('bad-creds', minutes(5));
    expect(await eventReasons('bad-creds')).toContain('CleanupSkipped');
    const gone = await fetch(`${env.ironicUrl}/v1/nodes/${nodeId}`, { headers: { 'x-openstack-ironic-api-version': '1.95' } });
    expect(gone.status).toBe(404);
  }, minutes(7));

  it('never writes a BMC password to its log, even at debug level', () => {
    const logs = operatorLogs.map((path) => readFileSync(path, 'utf8')).join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const password of [credentials.password, env.ipmiBmc.credentials.password, 'not-the-password', 'changed-behind-our-back']) {
      expect(logs).not.toContain(password);
    }
  });
});
