import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { connect, type ConnectionOptions } from 'node:tls';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { stringify } from 'yaml';
import { generateServingCerts } from '../../../hack/stack/certs.ts';
import { OPERATOR_IDENTITY } from '../../../hack/stack/controller-identity.ts';
import { prepareOperatorWebhook, type OperatorWebhook } from '../../../hack/stack/operator-webhook.ts';
import { freePorts } from '../../../hack/stack/ports.ts';
import { isAlive } from '../../../hack/stack/processes.ts';
import { SEED_FIXTURE_DIR, seedFixtureFiles } from '../../../operator/api/testing/seed-fixtures.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';

type Manifest = Record<string, unknown>;

beforeAll(async () => {
  const kubectl = new Kubectl(readStackEnv());
  try {
    await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
    await kubectl.ok(['wait', '--for=condition=Established', '--timeout=60s', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io',
      'crd/hostfirmwarecomponents.metal3.io']);
  } finally {
    kubectl.dispose();
  }
});

const DENIED = 'admission webhook "baremetalhost.metal3.io" denied the request: ';
/** The arguments of BMO's manager Deployment (config/base/manager.yaml). */
const BMO_MANAGER_ARGS = ['--enable-leader-election', '--hostclaims'];
const REDFISH = 'redfish://127.0.0.1:8000/redfish/v1/Systems/1';

/**
 * BMO's BareMetalHost webhook served by the real operator process (its ServiceAccount's token,
 * the fixture provisioner) and called by the real API server, which kubectl talks to. Hosts go
 * in a namespace the operator does not watch, so they are only admitted, never acted on.
 */
describe('BareMetalHost validating webhook', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let hosts = '';
  let watched = '';
  let webhook: OperatorWebhook | undefined;
  let operator: OperatorProcess | undefined;

  const host = (name: string, spec: Manifest, metadata: Manifest = {}): Manifest => ({
    apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
    metadata: { name, namespace: hosts, ...metadata },
    spec: { online: true, bmc: { address: REDFISH, credentialsName: 'bmc' }, ...spec },
  });
  // JSON, not YAML: kubectl reads YAML 1.1, where an unquoted `yes` would be a boolean.
  const apply = (...objects: Manifest[]) => kubectl.run(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  const patch = (name: string, body: Manifest, subresource?: 'status') =>
    kubectl.run(['patch', 'bmh', name, '-n', hosts, '--type=merge', '-p', JSON.stringify(body), ...(subresource ? ['--subresource=status'] : [])]);
  const setState = async (name: string, state: string, operationalStatus = 'OK') => {
    const result = await patch(name, { status: { operationalStatus, errorMessage: '', poweredOn: false, errorCount: 0, provisioningFailCount: 0,
      provisioning: { ID: '', state } } }, 'status');
    expect(result.stderr).toBe('');
  };

  beforeAll(async () => {
    [hosts, watched] = await Promise.all([createUniqueNamespace(kubectl, 'webhook-hosts'), createUniqueNamespace(kubectl, 'webhook-operator')]);
    webhook = await prepareOperatorWebhook({ target: env, dir: join(env.stateDir, 'webhooks', hosts), name: `bmh-${hosts}`, namespace: hosts });
    operator = startOperatorProcess({
      env, namespace: watched, label: `webhook-${hosts}`,
      extraEnv: { PROVISIONER: 'fixture', LEADER_ELECTION_ID: `webhook-${hosts}`, LEADER_ELECTION_NAMESPACE: OPERATOR_IDENTITY.namespace, ...webhook.operatorEnv },
      // What BMO's config/base/manager.yaml passes, then BMO's other flags: the API server must still reach the webhook.
      extraArgs: [...BMO_MANAGER_ARGS, '--dev', '--kube-api-qps=20', '--kube-api-burst=30', '--tls-max-version=TLS12',
        '--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', '--tls-curve-preferences=CurveP256'],
    });
    await webhook.register(operator.process);
  }, 120_000);

  afterAll(async () => {
    await webhook?.unregister();
    await operator?.stop();
    await Promise.all([hosts, watched].filter(Boolean).map((namespace) => deleteNamespace(kubectl, namespace)));
    kubectl.dispose();
  });

  it('accepts good hosts, the seeds\' YAML included', async () => {
    // The seeds' YAML as written, moved into the test namespace (their references are same-namespace ones).
    const seeds = seedFixtureFiles().map((file) => readFileSync(join(SEED_FIXTURE_DIR, file), 'utf8').replaceAll('namespace: metal3', `namespace: ${hosts}`));
    const good = [
      host('redfish-host', { bootMACAddress: '00:11:22:33:44:55', image: { url: 'http://127.0.0.1/os.img', checksum: 'http://127.0.0.1/os.img.sha256sum' } }),
      host('ipmi-host', { bmc: { address: 'ipmi://127.0.0.1:6230', credentialsName: 'bmc' }, bootMACAddress: '00:11:22:33:44:56', inspectionMode: 'disabled' },
        { annotations: { 'inspect.metal3.io/hardwaredetails': '{"cpu":{"arch":"x86_64","count":2},"ramMebibytes":4096}' } }),
      host('unmanaged-host', { bmc: undefined, online: false }),
      host('raid-host', { raid: { softwareRAIDVolumes: [{ level: '1', rootVolume: true }] }, disablePowerOff: true },
        { annotations: { 'reboot.metal3.io/owner': '{"mode":"hard"}', 'baremetalhost.metal3.io/detached': '{"deleteAction":"delay"}' } }),
      // Any detached value, as BMO takes it: OpenShift's assisted installer writes its own name.
      host('assisted-host', { bootMACAddress: '00:11:22:33:44:57' }, { annotations: { 'baremetalhost.metal3.io/detached': 'assisted-service-controller' } }),
    ];
    const results = [await apply(...good), ...await Promise.all(seeds.map((yaml) => kubectl.run(['apply', '-f', '-'], yaml)))];
    expect(results.map((result) => result.stderr)).toEqual(results.map(() => ''));
    const stored = await kubectl.json<{ items: { metadata: { name: string } }[] }>(['get', 'bmh', '-n', hosts]);
    expect(stored.items.map((item) => item.metadata.name).sort())
      .toEqual(['assisted-host', 'ipmi-host', 'metal3-node01', 'node-0', 'raid-host', 'redfish-host', 'unmanaged-host']);
  });

  // One bad host per rule the API server's schema lets through to the webhook, with BMO's exact message.
  const BAD_HOSTS: { rule: string; name?: string; spec?: Manifest; metadata?: Manifest; message: string }[] = [
    { rule: 'unknown BMC scheme', spec: { bmc: { address: 'foo://127.0.0.1', credentialsName: 'bmc' } }, message: "Unknown BMC type 'foo' for address foo://127.0.0.1" },
    { rule: 'invalid BMC host', spec: { bmc: { address: 'redfish://bad_host/redfish/v1', credentialsName: 'bmc' } },
      message: 'failed to parse BMC address information: BMC address hostname/IP : [bad_host] is invalid' },
    { rule: 'firmware field', spec: { firmware: { sriovEnabled: true } }, message: 'the Firmware field is no longer supported, use HostFirmwareSettings resource instead' },
    { rule: 'cross-namespace Secret', name: 'cross-ns', spec: { userData: { name: 'user-data', namespace: 'default' } },
      message: 'baremetalhosts.metal3.io "cross-ns" is forbidden: userData: cross-namespace Secret references are not allowed' },
    { rule: 'two kinds of RAID', spec: { raid: { hardwareRAIDVolumes: [{ level: '1' }], softwareRAIDVolumes: [{ level: '1' }] } },
      message: 'hardwareRAIDVolumes and softwareRAIDVolumes can not be set at the same time' },
    { rule: 'physicalDisks without controller', spec: { raid: { hardwareRAIDVolumes: [{ level: '1', physicalDisks: ['a', 'b'] }] } },
      message: "'physicalDisks' specified without 'controller' in hardware RAID volume 0" },
    { rule: 'two root volumes', spec: { raid: { softwareRAIDVolumes: [{ level: '1', rootVolume: true }, { level: '1', rootVolume: true }] } },
      message: 'softwareRAIDVolumes[*].rootVolume can only be set once' },
    { rule: 'root volume not RAID-1', spec: { raid: { softwareRAIDVolumes: [{ level: '0', rootVolume: true }] } },
      message: 'softwareRAIDVolumes[0] with rootVolume set must use RAID level 1' },
    { rule: 'hardware RAID on IPMI', spec: { bmc: { address: 'ipmi://127.0.0.1', credentialsName: 'bmc' }, raid: { hardwareRAIDVolumes: [{ level: '1' }] } },
      message: 'BMC driver ipmi does not support configuring RAID' },
    { rule: 'libvirt without boot MAC', spec: { bmc: { address: 'libvirt://127.0.0.1', credentialsName: 'bmc' } }, message: 'BMC driver libvirt requires a BootMACAddress value' },
    { rule: 'invalid boot MAC', spec: { bootMACAddress: '00:11:22:33:44:55:66' }, message: 'address 00:11:22:33:44:55:66: invalid MAC address' },
    { rule: 'secure boot on IPMI', spec: { bmc: { address: 'ipmi://127.0.0.1', credentialsName: 'bmc' }, bootMode: 'UEFISecureBoot' },
      message: 'BMC driver ipmi does not support secure boot' },
    { rule: 'UUID name', name: '3f2504e0-4f89-11d3-9a0c-0305e82c3301', message: 'BareMetalHost resource name cannot be a UUID' },
    { rule: 'root device hint outside /dev', spec: { rootDeviceHints: { deviceName: 'sda' } }, message: 'device name of root device hint must be a /dev/ path, not "sda"' },
    { rule: 'image URL scheme', spec: { image: { url: 'file:///os.img', checksum: 'abc' } }, message: 'image URL file:///os.img is invalid: invalid scheme in URL, "file" not allowed' },
    { rule: 'image URL Go cannot parse', spec: { image: { url: 'http://127.0.0.1:port/os.img', checksum: 'abc' } },
      message: 'image URL http://127.0.0.1:port/os.img is invalid: parse "http://127.0.0.1:port/os.img": invalid port ":port" after host' },
    { rule: 'image without checksum', spec: { image: { url: 'http://127.0.0.1/os.img' } }, message: 'checksum is required for normal images' },
    { rule: 'status annotation', metadata: { annotations: { 'baremetalhost.metal3.io/status': '{"operationalStatus":"fine"}' } },
      message: "invalid operationalStatus 'fine' in the baremetalhost.metal3.io/status annotation" },
    { rule: 'reboot annotation', metadata: { annotations: { 'reboot.metal3.io': '{"mode":"gentle"}' } },
      message: 'invalid mode in the reboot.metal3.io annotation, allowed are "hard", "soft" or ""' },
    { rule: 'inspect annotation', metadata: { annotations: { 'inspect.metal3.io': 'yes' } }, message: 'invalid value for the inspect.metal3.io annotation, allowed are "disabled" or ""' },
    { rule: 'hardware details with inspection', metadata: { annotations: { 'inspect.metal3.io/hardwaredetails': '{"ramMebibytes":1}' } },
      message: 'when hardware details are provided, inspection must be disabled (either via inspect.metal3.io annotation or inspectionMode field)' },
    { rule: 'inspectionMode against annotation', spec: { inspectionMode: 'agent', bootMACAddress: '00:11:22:33:44:55' }, metadata: { annotations: { 'inspect.metal3.io': 'disabled' } },
      message: 'inspect.metal3.io annotation and inspectionMode field have contradicting values' },
    { rule: 'fast inspection on IPMI', spec: { bmc: { address: 'ipmi://127.0.0.1', credentialsName: 'bmc' }, inspectionMode: 'fast' },
      message: 'BMC driver ipmi does not support fast (out-of-band) inspection' },
    { rule: 'disablePowerOff with online false', spec: { disablePowerOff: true, online: false },
      message: "node can't simultaneously have online set to false and have power off disabled" },
    { rule: 'networkInterfaces', spec: { networkInterfaces: [{ name: 'eno1' }, { name: 'eno1' }] }, message: 'networkInterfaces[1]: duplicate interface selector for "eno1"' },
    { rule: 'several rules at once', spec: { disablePowerOff: true, online: false, firmware: { sriovEnabled: true } },
      message: "[the Firmware field is no longer supported, use HostFirmwareSettings resource instead, node can't simultaneously have online set to false and have power off disabled]" },
  ];

  it('refuses one bad host per rule with BMO\'s message, and stores none of them', async () => {
    const results = await Promise.all(BAD_HOSTS.map(async ({ rule, name, spec, metadata, message }, index) => {
      const result = await apply(host(name ?? `bad-${index}`, spec ?? {}, metadata ?? {}));
      return { rule, code: result.code, error: result.stderr.trim(), expected: `${DENIED}${message}` };
    }));
    for (const { rule, code, error, expected } of results) {
      expect({ rule, code, error: error.slice(error.indexOf('admission webhook')) }).toEqual({ rule, code: 1, error: expected });
    }
    const stored = await kubectl.json<{ items: { metadata: { name: string } }[] }>(['get', 'bmh', '-n', hosts]);
    expect(stored.items.map((item) => item.metadata.name).filter((name) => name.startsWith('bad-') || name.length === 36 || name === 'cross-ns')).toEqual([]);
  });

  it('refuses what may not change on an existing host, and allows it where BMO does', async () => {
    const name = 'updated-host';
    expect((await apply(host(name, { bootMACAddress: '00:11:22:33:44:77' }))).stderr).toBe('');
    await setState(name, 'provisioned');
    const moveBMC = { spec: { bmc: { address: 'redfish://127.0.0.2:8000/redfish/v1/Systems/1' } } };
    const refusedMove = await patch(name, moveBMC);
    expect(refusedMove.stderr).toContain(`${DENIED}BMC address can not be changed if the BMH is not in the Registering state, or if the BMH is not detached`);
    const newMAC = await patch(name, { spec: { bootMACAddress: '00:11:22:33:44:78' } });
    expect(newMAC.stderr).toContain(`${DENIED}bootMACAddress can not be changed once it is set`);
    const adopt = await patch(name, { spec: { externallyProvisioned: true } });
    expect(adopt.stderr).toContain(`${DENIED}externallyProvisioned can only be enabled when in Available state, currently in provisioned`);
    // Nothing of it reached the stored object.
    const unchanged = await kubectl.json<{ spec: { bmc: { address: string }; bootMACAddress: string; externallyProvisioned?: boolean } }>(['get', 'bmh', name, '-n', hosts]);
    expect(unchanged.spec).toMatchObject({ bmc: { address: REDFISH }, bootMACAddress: '00:11:22:33:44:77' });
    expect(unchanged.spec.externallyProvisioned).toBeFalsy();

    await setState(name, 'provisioned', 'detached');
    expect((await patch(name, moveBMC)).stderr).toBe('');
    await setState(name, 'registering');
    expect((await patch(name, { spec: { bmc: { address: REDFISH } } })).stderr).toBe('');
    await setState(name, 'available');
    expect((await patch(name, { spec: { externallyProvisioned: true } })).stderr).toBe('');
    const changed = await kubectl.json<{ spec: { bmc: { address: string }; externallyProvisioned?: boolean } }>(['get', 'bmh', name, '-n', hosts]);
    expect(changed.spec).toMatchObject({ bmc: { address: REDFISH }, externallyProvisioned: true });
  });

  it('serves TLS 1.2 with only the cipher suite and curve BMO\'s flags name, and logs as BMO\'s --dev does', async () => {
    // The API server got through already (register() waited for a refusal); another client that offers nothing allowed does not.
    const handshake = (options: ConnectionOptions) => new Promise<Record<string, string | undefined>>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: webhook?.port, rejectUnauthorized: false, ...options }, () => {
        resolve({ protocol: socket.getProtocol() ?? undefined, cipher: socket.getCipher().standardName, group: (socket.getEphemeralKeyInfo() as { name?: string } | null)?.name });
        socket.end();
      });
      socket.on('error', (error) => resolve({ error: error.message }));
    });
    expect(await handshake({})).toEqual({ protocol: 'TLSv1.2', cipher: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', group: 'prime256v1' });
    expect((await handshake({ ciphers: 'ECDHE-RSA-AES256-GCM-SHA384' })).error).toMatch(/handshake failure/);
    expect((await handshake({ ecdhCurve: 'X25519' })).error).toMatch(/handshake failure/);
    expect((await handshake({ minVersion: 'TLSv1.3' })).error).toMatch(/protocol version/);
    const log = readFileSync(operator?.process.logPath ?? '', 'utf8');
    // BMO's --hostclaims starts the HostClaim controller.
    expect(log).toMatch(/^\S+\tINFO\tstarting workers\t.*"controller":"hostclaim"/m);
    expect(log).toMatch(/^\S+\tINFO\tserving webhooks\t/m);
    // --enable-leader-election with --kube-api-qps: the Lease has a client of its own and is taken.
    expect(log).toMatch(/^\S+\tINFO\tsuccessfully acquired lease\t/m);
    expect(log).not.toMatch(/^\{/m);
  });

  it("refuses HostFirmwareComponents updates whose URL BMO refuses, on create and update, with BMO's message", async () => {
    const components = (name: string, updates: { component: string; url: string }[]): Manifest => ({
      apiVersion: 'metal3.io/v1alpha1', kind: 'HostFirmwareComponents', metadata: { name, namespace: hosts }, spec: { updates },
    });
    const components403 = 'admission webhook "hostfirmwarecomponents.metal3.io" denied the request: ';
    expect((await apply(components('good-firmware', [{ component: 'bios', url: 'https://127.0.0.1/bios-1.1.0.bin' }]))).stderr).toBe('');
    const badCreate = await apply(components('bad-firmware', [{ component: 'bmc', url: 'file:///bmc.bin' }]));
    expect(badCreate.stderr).toContain(`${components403}invalid URL "file:///bmc.bin" in FirmwareUpdate in component "bmc": invalid scheme in URL, "file" not allowed`);
    const badUpdate = await kubectl.run(['patch', 'hostfirmwarecomponents', 'good-firmware', '-n', hosts, '--type=merge',
      '-p', JSON.stringify({ spec: { updates: [{ component: 'bios', url: 'bios.bin' }] } })]);
    expect(badUpdate.stderr).toContain(`${components403}invalid URL "bios.bin" in FirmwareUpdate in component "bios": parse "bios.bin": invalid URI for request`);
    const stored = await kubectl.json<{ items: { metadata: { name: string }; spec: { updates: { url: string }[] } }[] }>(['get', 'hostfirmwarecomponents', '-n', hosts]);
    expect(stored.items.map((item) => [item.metadata.name, item.spec.updates.map((update) => update.url)]))
      .toEqual([['good-firmware', ['https://127.0.0.1/bios-1.1.0.bin']]]);
  });

  it("refuses HostClaims whose selector BMO's webhook refuses, on create and update, with BMO's message", async () => {
    const claim = (name: string, hostSelector: Manifest): Manifest => ({
      apiVersion: 'metal3.io/v1alpha1', kind: 'HostClaim', metadata: { name, namespace: hosts }, spec: { poweredOn: false, hostSelector },
    });
    const claim403 = 'admission webhook "hostclaim.metal3.io" denied the request: ';
    expect((await apply(claim('good-claim', { matchLabels: { pool: 'web' }, matchExpressions: [{ key: 'zone', operator: 'in', values: ['a'] }] }))).stderr).toBe('');
    const badCreate = await apply(claim('bad-claim', { matchExpressions: [{ key: 'zone', operator: 'in', values: [] }] }));
    expect(badCreate.stderr).toContain(`${claim403}matchExpr 1: At least one value in list for operator in in match expression on label key zone`);
    const badUpdate = await kubectl.run(['patch', 'hostclaim', 'good-claim', '-n', hosts, '--type=merge', '-p', JSON.stringify({ spec: { hostSelector: { matchLabels: { pool: '-web' } } } })]);
    expect(badUpdate.stderr).toContain(`${claim403}pool=-web: a valid label must be an empty string`);
    const stored = await kubectl.json<{ items: { metadata: { name: string }; spec: { hostSelector: Manifest } }[] }>(['get', 'hostclaims', '-n', hosts]);
    expect(stored.items.map((item) => [item.metadata.name, item.spec.hostSelector.matchLabels])).toEqual([['good-claim', { pool: 'web' }]]);
  });
});

/**
 * BMO exits when its webhook server cannot start; this operator keeps reconciling and says why:
 * in its log and on /readyz, which turns ready once the server does start.
 */
describe('an operator whose webhook server cannot start', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let blocker: Server | undefined;
  let operator: OperatorProcess | undefined;

  beforeAll(async () => {
    namespace = await createUniqueNamespace(kubectl, 'webhook-unbound');
  });

  afterAll(async () => {
    await operator?.stop();
    blocker?.close();
    if (namespace) await deleteNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  it('reconciles anyway, reports the missing certificate, then the taken port, then serves', async () => {
    const [healthPort, webhookPort] = (await freePorts(2)) as [number, number];
    // Another process holds the webhook port.
    blocker = createServer();
    await new Promise<void>((resolve) => blocker?.listen(webhookPort, resolve));
    const certDir = join(env.stateDir, 'webhooks', namespace, 'certs');
    mkdirSync(certDir, { recursive: true });
    operator = startOperatorProcess({ env, namespace, label: `webhook-unbound-${namespace}`, extraEnv: {
      PROVISIONER: 'fixture', WEBHOOK_PORT: String(webhookPort), WEBHOOK_CERT_DIR: certDir, HEALTH_PROBE_BIND_ADDRESS: `127.0.0.1:${healthPort}`,
    } });
    const readyz = async () => {
      const response = await fetch(`http://127.0.0.1:${healthPort}/readyz?verbose`);
      return { status: response.status, body: await response.text() };
    };
    const readyzSaying = (...texts: string[]) => waitFor(async () => {
      if (!isAlive(operator!.process.pid)) throw new Error('the operator exited');
      const report = await readyz();
      return texts.every((text) => report.body.includes(text)) ? report : undefined;
    }, { timeoutMs: 60_000, intervalMs: 500, what: `/readyz saying ${texts.join(' and ')}` });

    const noCertificate = await readyzSaying('[+]informers ok',
      `[-]webhook failed: webhook server not serving: cannot read the serving certificate file ${join(certDir, 'tls.crt')}: ENOENT`);
    expect(noCertificate.status).toBe(500);
    // The controllers run: a host without BMC details is seen and marked unmanaged.
    expect((await kubectl.run(['apply', '-f', '-'], stringify({ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
      metadata: { name: 'no-bmc', namespace }, spec: { online: false } }))).stderr).toBe('');
    await waitFor(async () => {
      const found = await kubectl.json<{ status?: { provisioning?: { state?: string } } }>(['get', 'bmh', 'no-bmc', '-n', namespace]);
      return found.status?.provisioning?.state === 'unmanaged' ? true : undefined;
    }, { timeoutMs: 60_000, what: 'the host marked unmanaged' });
    expect((await fetch(`http://127.0.0.1:${healthPort}/healthz`)).status).toBe(200);

    // The certificate arrives (as a cert-manager Secret does in a mounted volume).
    const issued = await generateServingCerts({ dir: join(env.stateDir, 'webhooks', namespace, 'issued'), commonName: namespace, certName: 'tls.crt', keyName: 'tls.key' });
    copyFileSync(issued.servingKey, join(certDir, 'tls.key'));
    copyFileSync(issued.servingCert, join(certDir, 'tls.crt'));
    const portTaken = await readyzSaying(`[-]webhook failed: webhook server not serving: cannot listen on :${webhookPort}: address already in use`);
    expect(portTaken.status).toBe(500);
    const log = readFileSync(operator.process.logPath, 'utf8');
    expect(log).toContain('webhook server cannot start');
    expect(log).toContain('cannot read the serving certificate file');
    expect(log).toContain(`cannot listen on :${webhookPort}: address already in use`);

    await new Promise<void>((resolve) => blocker?.close(() => resolve()));
    blocker = undefined;
    await waitFor(async () => ((await readyz()).status === 200 ? true : undefined), { timeoutMs: 60_000, what: '/readyz ok once the port is free' });
    expect(isAlive(operator.process.pid)).toBe(true);
  }, 180_000);
});
