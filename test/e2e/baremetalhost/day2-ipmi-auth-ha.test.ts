import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { issueLoopbackServingCert } from '../../../hack/stack/certs.ts';
import { OPERATOR_IDENTITY } from '../../../hack/stack/controller-identity.ts';
import { startIpmiBmc, type IpmiBmcStarted } from '../../../hack/stack/ipmi-bmc.ts';
import { writeHtpasswd } from '../../../hack/stack/htpasswd.ts';
import { startIronic, type IronicStarted } from '../../../hack/stack/ironic.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { isAlive, stopProcess } from '../../../hack/stack/processes.ts';
import { freePort } from '../../../hack/stack/ports.ts';
import { loggedMetricsAddress } from '../../support/final-metrics.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic, type RawIronicNode } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { deleteHostNamespace, getHost, inState, metricValue, recordsSince, serverRecords, tearDownHostTest, waitForBoot, waitForHost, waitForSushyPower } from './hosts.ts';

// Emulated servers 41-43 (indexes 40-42). 41: an ipmi:// host behind an IPMI BMC that drives
// that server; 42: a second Ironic with http_basic and TLS; 43: two operators with leader election.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const sharedIronic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const IPMI_SERVER = env.systems[40]!;
const TLS_SERVER = env.systems[41]!;
const HA_SERVER = env.systems[42]!;
const bmcCredentials = env.bmcCredentials ?? { username: 'admin', password: 'metal3-ts-bmc' };
const ironicCredentials = { username: 'metal3-ts-operator', password: 'day2-tls-secret-4f1e' };
const WRONG_PASSWORD = 'not-the-password-9c2a';
const LEASE = { id: `day2-ha-${process.pid}`, durationS: 6, renewDeadlineS: 4, retryPeriodS: 1 };

const namespaces = { ipmi: '', tls: '', wrong: '', ha: '' };
const operators: OperatorProcess[] = [];
let ipmiBmc: IpmiBmcStarted | undefined;
let tlsIronic: IronicStarted | undefined;
let tlsIronicApi: RawIronic;
let wrongHealthUrl = '';
let wrongLogPath = '';
let goodCredentialsRoot = '';
const baselines = new Map<string, SystemRecords>();

/** What one server went through since this file started. */
async function recordsSinceStart(uuid: string): Promise<SystemRecords> {
  return recordsSince(await serverRecords(env, uuid), baselines.get(uuid)!);
}

/** The operator's credential files as a mounted Secret swaps them: both at once, never one without the other. */
function swapCredentialFiles(root: string, credentials: { username: string; password: string }): void {
  const next = join(root, 'ironic.next');
  mkdirSync(next, { recursive: true, mode: 0o700 });
  writeFileSync(join(next, 'username'), credentials.username, { mode: 0o600 });
  writeFileSync(join(next, 'password'), credentials.password, { mode: 0o600 });
  rmSync(join(root, 'ironic.old'), { recursive: true, force: true });
  renameSync(join(root, 'ironic'), join(root, 'ironic.old'));
  renameSync(next, join(root, 'ironic'));
}

function credentialsDir(name: string, password: string): string {
  const root = join(env.stateDir, 'day2-ipmi-auth-ha', name);
  mkdirSync(join(root, 'ironic'), { recursive: true, mode: 0o700 });
  writeFileSync(join(root, 'ironic', 'username'), ironicCredentials.username, { mode: 0o600 });
  writeFileSync(join(root, 'ironic', 'password'), password, { mode: 0o600 });
  return root;
}

function hostManifest(options: { namespace: string; name: string; mac: string; address: string; credentials: { username: string; password: string } }) {
  return [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${options.name}-bmc`, namespace: options.namespace }, type: 'Opaque',
      stringData: options.credentials },
    {
      apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: options.name, namespace: options.namespace },
      spec: {
        online: true,
        bootMACAddress: options.mac,
        bmc: { address: options.address, credentialsName: `${options.name}-bmc` },
        image: { url: image.url, checksum: image.sha256, checksumType: 'sha256', format: 'raw' },
      },
    },
  ];
}

async function applyHosts(items: unknown[]): Promise<void> {
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}

async function startTlsIronic(): Promise<IronicStarted> {
  const dir = join(env.stateDir, 'day2-ipmi-auth-ha');
  rmSync(join(env.stateDir, 'ironic-tls'), { recursive: true, force: true });
  const serving = await issueLoopbackServingCert({ dir: join(dir, 'pki'), ca: env.ca, name: 'ironic-tls', commonName: 'ironic-tls' });
  return startIronic({
    stateDir: env.stateDir, venv: env.ironicVenv, port: await freePort(), artifactsUrl: env.artifactsUrl,
    artifactsRoot: join(env.stateDir, 'artifacts'), auth: ironicCredentials, name: 'ironic-tls',
    tls: { certFile: serving.cert, keyFile: serving.key, caFile: env.ca.cert },
  });
}

interface Lease { spec: { holderIdentity?: string; renewTime?: string; leaseTransitions?: number } }

async function readLease(): Promise<Lease | undefined> {
  const found = await kubectl.run(['get', 'lease', LEASE.id, '-n', OPERATOR_IDENTITY.namespace, '-o', 'json']);
  return found.code === 0 ? (JSON.parse(found.stdout) as Lease) : undefined;
}

/** Resolves once `label` holds the Lease; while it does not, what the Lease and that replica say (for the timeout message). */
async function heldBy(label: 'ha-a' | 'ha-b'): Promise<true> {
  const lease = await readLease();
  if (lease?.spec.holderIdentity?.startsWith(`${label}_`)) return true;
  const replica = haOperators[label]!.process;
  const electionLines = readFileSync(replica.logPath, 'utf8').split('\n').filter((line) => /lease|leader/i.test(line)).slice(-6);
  throw new Error(`the Lease is ${JSON.stringify(lease?.spec)}; ${label} ${isAlive(replica.pid) ? 'runs' : 'is gone'}, `
    + `its last election log lines:\n${electionLines.join('\n')}`);
}

function haOperator(label: 'ha-a' | 'ha-b', metricsPort: number): OperatorProcess {
  return startOperatorProcess({
    env, namespace: namespaces.ha, label: `day2-${label}`,
    extraEnv: {
      POD_NAME: label, LEADER_ELECT: 'true', LEADER_ELECTION_ID: LEASE.id, LEADER_ELECTION_NAMESPACE: OPERATOR_IDENTITY.namespace,
      LEADER_ELECTION_LEASE_DURATION: `${LEASE.durationS}s`, LEADER_ELECTION_RENEW_DEADLINE: `${LEASE.renewDeadlineS}s`,
      LEADER_ELECTION_RETRY_PERIOD: `${LEASE.retryPeriodS}s`, METRICS_BIND_ADDRESS: `127.0.0.1:${metricsPort}`,
    },
  });
}

const haMetrics: Record<'ha-a' | 'ha-b', string> = { 'ha-a': '', 'ha-b': '' };
const haOperators: Partial<Record<'ha-a' | 'ha-b', OperatorProcess>> = {};

/** Ironic requests one operator process sent, by its own metrics. */
async function ironicRequests(label: 'ha-a' | 'ha-b'): Promise<number> {
  return metricValue(await (await fetch(haMetrics[label])).text(), 'ironic_client_requests_total');
}

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  for (const server of [IPMI_SERVER, TLS_SERVER, HA_SERVER]) baselines.set(server.uuid, await serverRecords(env, server.uuid));
  [namespaces.ipmi, namespaces.tls, namespaces.wrong, namespaces.ha] = await Promise.all([
    createUniqueNamespace(kubectl, 'e2e-ipmi'), createUniqueNamespace(kubectl, 'e2e-ironic-tls'),
    createUniqueNamespace(kubectl, 'e2e-ironic-wrong'), createUniqueNamespace(kubectl, 'e2e-ha')]);

  [ipmiBmc, tlsIronic] = await Promise.all([
    // The IPMI side of server 41's BMC: its power and boot device requests reach the emulated server.
    (async () => startIpmiBmc({
      stateDir: env.stateDir, venv: env.ironicVenv, port: await freePort(), credentials: bmcCredentials, name: 'ipmi-bmc-41',
      redfishSystem: { url: `${env.sushyUrl}/redfish/v1/Systems/${IPMI_SERVER.uuid}`, credentials: env.bmcCredentials },
    }))(),
    startTlsIronic(),
  ]);
  tlsIronicApi = new RawIronic(tlsIronic.url, { auth: ironicCredentials, caFile: env.ca.cert });
  goodCredentialsRoot = credentialsDir('good', ironicCredentials.password);

  // The IPMI host is driven by the shared operator set-up, against the stack's Ironic.
  operators.push(startOperatorProcess({ env, namespace: namespaces.ipmi, label: 'day2-ipmi' }));
  operators.push(startOperatorProcess({
    env, namespace: namespaces.tls, label: 'day2-ironic-tls',
    extraEnv: {
      IRONIC_ENDPOINT: tlsIronic.url, IRONIC_CACERT_FILE: env.ca.cert, METAL3_AUTH_ROOT_DIR: goodCredentialsRoot,
      // Ironic builds the boot ISO itself, so its kernel command line names this Ironic (ipa-api-url).
      DEPLOY_ISO_URL: '',
    },
  }));
  const healthPort = await freePort();
  wrongHealthUrl = `http://127.0.0.1:${healthPort}/readyz?verbose`;
  const wrong = startOperatorProcess({
    env, namespace: namespaces.wrong, label: 'day2-ironic-wrong-credentials',
    extraEnv: {
      IRONIC_ENDPOINT: tlsIronic.url, IRONIC_CACERT_FILE: env.ca.cert, METAL3_AUTH_ROOT_DIR: credentialsDir('wrong', WRONG_PASSWORD),
      DEPLOY_ISO_URL: '', HEALTH_PROBE_BIND_ADDRESS: `127.0.0.1:${healthPort}`,
    },
  });
  wrongLogPath = wrong.process.logPath;
  operators.push(wrong);

  const [portA, portB] = [await freePort(), await freePort()];
  haMetrics['ha-a'] = `http://127.0.0.1:${portA}/metrics`;
  haMetrics['ha-b'] = `http://127.0.0.1:${portB}/metrics`;
  haOperators['ha-a'] = haOperator('ha-a', portA);
  operators.push(haOperators['ha-a']);
  // The second replica starts once the first leads, so which one writes is known.
  await waitFor(() => heldBy('ha-a'), { timeoutMs: 60_000, intervalMs: 500, what: 'ha-a to take the Lease' });
  haOperators['ha-b'] = haOperator('ha-b', portB);
  operators.push(haOperators['ha-b']);

  await Promise.all([
    applyHosts(hostManifest({ namespace: namespaces.ipmi, name: 'ipmi-41', mac: IPMI_SERVER.macs[0]!, address: ipmiBmc.address,
      credentials: bmcCredentials })),
    applyHosts(hostManifest({ namespace: namespaces.tls, name: 'tls-42', mac: TLS_SERVER.macs[0]!,
      address: TLS_SERVER.redfishAddress.replace(/^redfish\+http:/, 'redfish-virtualmedia+http:'), credentials: bmcCredentials })),
    // Never reaches a server: the operator cannot get past Ironic's authentication.
    applyHosts(hostManifest({ namespace: namespaces.wrong, name: 'wrong-credentials', mac: '00:5a:91:00:2a:7f',
      address: TLS_SERVER.redfishAddress, credentials: bmcCredentials })),
    applyHosts(hostManifest({ namespace: namespaces.ha, name: 'ha-43', mac: HA_SERVER.macs[0]!, address: HA_SERVER.redfishAddress,
      credentials: bmcCredentials })),
  ]);
}, minutes(3));

afterAll(async () => {
  await Promise.all([
    tearDownHostTest({ env, kubectl, namespace: namespaces.ipmi, operator: operators[0] }),
    tearDownHostTest({ env, kubectl, namespace: namespaces.tls, operator: operators[1] }),
    // That operator cannot delete anything through Ironic: its host is cleared by hand.
    (async () => {
      await operators[2]?.stop();
      if (namespaces.wrong) await deleteHostNamespace(kubectl, namespaces.wrong);
    })(),
    (async () => {
      await haOperators['ha-a']?.kill();
      await tearDownHostTest({ env, kubectl, namespace: namespaces.ha, operator: haOperators['ha-b'] });
    })(),
  ]);
  if (ipmiBmc) await stopProcess(ipmiBmc.process);
  if (tlsIronic) await stopProcess(tlsIronic.process);
  await kubectl.run(['delete', 'lease', LEASE.id, '-n', OPERATOR_IDENTITY.namespace, '--ignore-not-found']);
  kubectl.dispose();
}, minutes(6));

describe('day-2 on the real stack: IPMI, Ironic with http_basic and TLS, leader election', () => {
  it('with leader election only the leader writes to Ironic; killed, it hands over and the host finishes', async () => {
    const ns = namespaces.ha;
    // The leader works the host while the standby sends Ironic nothing.
    await waitForHost(kubectl, ns, 'ha-43', (host) => ['inspecting', 'preparing', 'available', 'provisioning'].includes(host.status?.provisioning?.state ?? ''),
      { timeoutMs: minutes(4), failOnError: true });
    expect(await ironicRequests('ha-a')).toBeGreaterThan(0);
    expect(await ironicRequests('ha-b')).toBe(0);

    await haOperators['ha-a']!.kill();
    const takenOver = await waitFor(() => heldBy('ha-b'), { timeoutMs: (LEASE.durationS + 20) * 1_000, intervalMs: 500, what: 'ha-b to take the Lease' });
    expect(takenOver).toBe(true);
    const provisioned = await waitForHost(kubectl, ns, 'ha-43', inState('provisioned'), { timeoutMs: minutes(10), failOnError: true });
    expect(await ironicRequests('ha-b')).toBeGreaterThan(0);
    expect(isAlive(haOperators['ha-a']!.process.pid)).toBe(false);
    const nodeUuid = provisioned.status!.provisioning!.ID!;
    expect((await sharedIronic.node(nodeUuid)).provision_state).toBe('active');
    // One server, one node, one inspection and one image write across the hand-over.
    const server = await recordsSinceStart(HA_SERVER.uuid);
    expect(server.inspections.filter((inspection) => inspection.accepted)).toEqual([expect.objectContaining({ nodeUuid })]);
    expect(server.imageWrites).toEqual([expect.objectContaining({ nodeUuid, outcome: 'written' })]);
  }, minutes(16));

  it('wrong Ironic credentials are said, not silently retried: a Warning event on the host, an error log line, /readyz failing', async () => {
    const ns = namespaces.wrong;
    // Said on the host as a Warning event; the host itself is not in error (nothing on it can fix this).
    const warnings = await waitFor(async () => {
      const found = await kubectl.ok(['get', 'events', '-n', ns, '--field-selector',
        'involvedObject.name=wrong-credentials,reason=ProvisionerAccessDenied,type=Warning', '-o', 'jsonpath={.items[*].message}']);
      return found.trim() ? found : undefined;
    }, { timeoutMs: minutes(2), what: 'a ProvisionerAccessDenied Warning event' });
    expect(warnings).toMatch(/credentials.*401: authentication failed/);
    const host = await getHost(kubectl, ns, 'wrong-credentials');
    expect(host?.status?.provisioning?.state).toBe('registering');
    expect(host?.status?.errorType ?? '').toBe('');
    const readyz = await waitFor(async () => {
      const response = await fetch(wrongHealthUrl);
      return response.status === 200 ? undefined : { status: response.status, body: await response.text() };
    }, { timeoutMs: 60_000, what: '/readyz to fail' });
    expect(readyz.status).toBe(500);
    expect(readyz.body).toMatch(/ironic.*(authentication failed|401)/i);
    const errorLines = readFileSync(wrongLogPath, 'utf8').split('\n').filter((line) => /"level":"error"/.test(line));
    expect(errorLines.join('\n')).toMatch(/authentication failed|401/i);
    // Nothing secret anywhere the user looks.
    expect(readFileSync(wrongLogPath, 'utf8')).not.toContain(WRONG_PASSWORD);
    expect(`${warnings}${JSON.stringify(host)}`).not.toContain(WRONG_PASSWORD);
  }, minutes(4));

  it('an ipmi:// host is inspected, provisioned, deprovisioned and deleted, its server booted over IPMI', async () => {
    const ns = namespaces.ipmi;
    const provisioned = await waitForHost(kubectl, ns, 'ipmi-41', inState('provisioned'), { timeoutMs: minutes(10), failOnError: true });
    const nodeUuid = provisioned.status!.provisioning!.ID!;
    const node = await sharedIronic.request<RawIronicNode & { driver: string; boot_interface: string; driver_info: Record<string, unknown> }>(
      'GET', `/v1/nodes/${nodeUuid}`);
    expect(node).toMatchObject({ driver: 'ipmi', provision_state: 'active', power_state: 'power on',
      driver_info: { ipmi_address: '127.0.0.1', ipmi_port: new URL(ipmiBmc!.address.replace('ipmi://', 'http://')).port } });
    expect(node.boot_interface).toMatch(/pxe/);

    const server = await recordsSinceStart(IPMI_SERVER.uuid);
    // Ironic set a network boot and powered on over IPMI: the server ran the ramdisk, was inspected and imaged...
    expect(server.boots.filter((boot) => boot.into === 'ramdisk').map((boot) => boot.bootDevice)).toContain('Pxe');
    expect(server.inspections).toEqual([expect.objectContaining({ nodeUuid, accepted: true })]);
    expect(server.imageWrites).toEqual([expect.objectContaining({ nodeUuid, outcome: 'written', url: image.url })]);
    // ...then booted its disk once Ironic set it as the boot device over IPMI.
    expect(await waitForBoot(env, IPMI_SERVER.uuid, { before: baselines.get(IPMI_SERVER.uuid)!, accept: (boot) => boot.into !== 'ramdisk', what: 'the server to boot after deployment' }))
      .toMatchObject({ bootDevice: 'Hdd', into: 'disk' });
    expect(provisioned.status?.hardware?.nics?.map((nic) => nic.mac)).toEqual(expect.arrayContaining(IPMI_SERVER.macs));

    // Deprovisioning: the image goes, Ironic cleans the disks through the ramdisk booted over IPMI.
    await kubectl.ok(['patch', 'bmh', 'ipmi-41', '-n', ns, '--type=json', '-p', '[{"op":"remove","path":"/spec/image"}]']);
    await waitForHost(kubectl, ns, 'ipmi-41', inState('available'), { timeoutMs: minutes(6), failOnError: true });
    const wiped = await recordsSinceStart(IPMI_SERVER.uuid);
    expect(wiped.diskWipes.filter((wipe) => wipe.nodeUuid === nodeUuid).length).toBeGreaterThan(0);
    expect((await sharedIronic.node(nodeUuid)).provision_state).toMatch(/available|manageable/);

    await kubectl.ok(['delete', 'bmh', 'ipmi-41', '-n', ns, '--wait=false']);
    await waitFor(async () => ((await kubectl.run(['get', 'bmh', 'ipmi-41', '-n', ns])).code !== 0 ? true : undefined),
      { timeoutMs: minutes(3), what: 'ipmi-41 to be deleted' });
    await expect(sharedIronic.node(nodeUuid)).rejects.toThrow(/404/);
  }, minutes(20));

  it('provisions through a second Ironic that requires http_basic over TLS signed by the stack\'s CA', async () => {
    const ns = namespaces.tls;
    const provisioned = await waitForHost(kubectl, ns, 'tls-42', inState('provisioned'), { timeoutMs: minutes(10), failOnError: true });
    const nodeUuid = provisioned.status!.provisioning!.ID!;
    const node = await tlsIronicApi.request<RawIronicNode & { conductor: string }>('GET', `/v1/nodes/${nodeUuid}`);
    expect(node).toMatchObject({ provision_state: 'active', conductor: 'metal3-ts-ironic-tls' });
    // That Ironic refuses anyone without the credentials, and the stack's own Ironic never saw the node.
    await expect(new RawIronic(tlsIronic!.url, { caFile: env.ca.cert }).node(nodeUuid)).rejects.toThrow(/401/);
    await expect(sharedIronic.node(nodeUuid)).rejects.toThrow(/404/);
    const server = await recordsSinceStart(TLS_SERVER.uuid);
    // The boot ISO that Ironic built sends the ramdisk to it over HTTPS.
    expect(server.boots.some((boot) => boot.media?.apiUrl === tlsIronic!.url)).toBe(true);
    expect(server.inspections).toEqual([expect.objectContaining({ nodeUuid, accepted: true })]);
    expect(server.imageWrites).toEqual([expect.objectContaining({ nodeUuid, outcome: 'written', url: image.url })]);
  }, minutes(12));

  it('rotated Ironic credentials are used without a restart: the old user removed from Ironic, the server still powers off', async () => {
    const ns = namespaces.tls;
    const operator = operators[1]!;
    const pid = operator.process.pid;
    const nodeUuid = (await getHost(kubectl, ns, 'tls-42'))!.status!.provisioning!.ID!;
    const rotated = { username: 'metal3-ts-operator-rotated', password: 'day2-tls-rotated-7b5e' };
    const metricsUrl = `http://${loggedMetricsAddress(readFileSync(operator.process.logPath, 'utf8'))}/metrics`;
    const refusedBefore = metricValue(await (await fetch(metricsUrl)).text(), 'ironic_client_requests_total', { code: '401' });
    // As a rotation is done in a cluster: Ironic takes both users while the operator's mounted Secret changes.
    await writeHtpasswd(tlsIronic!.htpasswdFile!, [ironicCredentials, rotated], env.ironicVenv);
    swapCredentialFiles(goodCredentialsRoot, rotated);
    // Within IRONIC_CLIENT_CACHE_TTL (5 s) of its next request, the operator says it read them.
    await waitFor(async () => (readFileSync(operator.process.logPath, 'utf8').includes('"message":"Ironic connection files changed: new requests use them"') ? true : undefined),
      { timeoutMs: minutes(2), intervalMs: 500, what: 'the operator to read the rotated credentials' });
    await writeHtpasswd(tlsIronic!.htpasswdFile!, [rotated], env.ironicVenv);
    await expect(new RawIronic(tlsIronic!.url, { auth: ironicCredentials, caFile: env.ca.cert }).node(nodeUuid)).rejects.toThrow(/401/);

    await kubectl.ok(['patch', 'bmh', 'tls-42', '-n', ns, '--type=merge', '-p', '{"spec":{"online":false}}']);
    await waitForSushyPower(env, TLS_SERVER.uuid, 'Off', minutes(2));
    await waitForHost(kubectl, ns, 'tls-42', (host) => host.status?.poweredOn === false, { timeoutMs: minutes(2), failOnError: true });
    expect((await new RawIronic(tlsIronic!.url, { auth: rotated, caFile: env.ca.cert }).request<RawIronicNode>('GET', `/v1/nodes/${nodeUuid}`)).power_state).toBe('power off');
    // The same process, and Ironic refused it nothing all along.
    expect([operator.process.pid, isAlive(pid)]).toEqual([pid, true]);
    expect(metricValue(await (await fetch(metricsUrl)).text(), 'ironic_client_requests_total', { code: '401' })).toBe(refusedBefore);
  }, minutes(5));


});
