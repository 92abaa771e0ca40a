import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { readSwitchConfigAsIronic } from '../../support/ironic-switch-config.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';

const CONFIGS = 'metal3-switch-configs';
const KEYS = 'metal3-switch-credentials';
const KEY_PATH = '/etc/ironic/switch-credentials';
const HEADER = '# This file is managed by the Baremetal Operator\n\n';
const PASSWORD = 'switch-1-password';
const SSH_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nc3dpdGNoLTI=\n-----END OPENSSH PRIVATE KEY-----\n';

interface SecretJson { metadata: { labels?: Record<string, string>; ownerReferences?: { kind: string; name: string }[] }; data?: Record<string, string> }
interface SwitchJson { status?: { conditions?: { type: string; status: string; reason: string; message: string; observedGeneration?: number }[] } }

/**
 * BMO's BareMetalSwitch controller (IRONIC_NETWORKING_ENABLED) in the real operator process
 * (fixture provisioner: no host is involved) against the real API server. What it writes is
 * then read by Ironic's own switch configuration reader, as Ironic's networking service reads
 * the mounted Secret at start-up.
 */
describe('BareMetalSwitch controller', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let operator: OperatorProcess | undefined;

  const applyJson = (object: unknown) => kubectl.ok(['apply', '-f', '-'], JSON.stringify(object));
  const secret = (name: string, stringData: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, stringData });
  const bareMetalSwitch = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalSwitch', metadata: { name, namespace },
    spec: { address: '127.0.0.1', deviceType: 'netmiko_cisco_ios', credentials: { name: `${name}-login` }, ...spec },
  });
  const readSecret = (name: string) => kubectl.json<SecretJson>(['get', 'secret', name, '-n', namespace, '-o', 'json']);
  const decoded = (value: string | undefined) => Buffer.from(value ?? '', 'base64').toString('utf8');
  const configFile = async () => decoded((await readSecret(CONFIGS)).data?.['switch-configs.conf']);
  const validCondition = async (name: string) =>
    (await kubectl.json<SwitchJson>(['get', 'baremetalswitch', name, '-n', namespace, '-o', 'json'])).status?.conditions?.find((condition) => condition.type === 'Valid');
  const waitForConfig = (what: string, holds: (file: string) => boolean) =>
    waitFor(async () => { const file = await configFile(); return holds(file) ? file : undefined; }, { timeoutMs: 60_000, what });
  const waitForValid = (name: string, status: 'True' | 'False') =>
    waitFor(async () => { const condition = await validCondition(name); return condition?.status === status ? condition : undefined; }, { timeoutMs: 60_000, what: `${name} Valid=${status}` });

  beforeAll(async () => {
    await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
    await kubectl.ok(['wait', '--for=condition=Established', '--timeout=60s', 'crd/baremetalswitches.metal3.io']);
    namespace = await createUniqueNamespace(kubectl, 'switches');
    // The deployment of Ironic's networking service makes these two; the operator only fills them.
    await applyJson({ apiVersion: 'v1', kind: 'List', items: [secret(CONFIGS, {}), secret(KEYS, {}), secret('switch-1-login', { username: 'admin', password: PASSWORD })] });
    operator = startOperatorProcess({
      env, namespace, label: `switches-${namespace}`,
      extraEnv: {
        PROVISIONER: 'fixture', IRONIC_NETWORKING_ENABLED: 'true',
        IRONIC_SWITCH_CONFIGS_SECRET: CONFIGS, IRONIC_SWITCH_CREDENTIALS_SECRET: KEYS, IRONIC_SWITCH_CREDENTIALS_PATH: KEY_PATH,
      },
    });
  }, 120_000);

  afterAll(async () => {
    await operator?.stop();
    if (namespace) await deleteNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  it('writes a password switch as BMO does, claims its login Secret, and Ironic reads it', async () => {
    await applyJson(bareMetalSwitch('switch-1', { macAddress: '00:00:5e:00:53:01', port: 2222 }));
    const file = await waitForConfig('switch-1 in the configuration', (text) => text.includes('[switch:switch-1]'));
    expect(file).toBe(`${HEADER}[switch:switch-1]\naddress=127.0.0.1\nmac_address=00:00:5e:00:53:01\nport=2222\ndriver_type=generic-switch\n` +
      `device_type=netmiko_cisco_ios\nusername=admin\npassword=${PASSWORD}\n\n`);
    expect(await waitForValid('switch-1', 'True')).toMatchObject({ reason: 'Reconciled', observedGeneration: 1 });
    const login = await readSecret('switch-1-login');
    expect(login.metadata.labels).toMatchObject({ 'environment.metal3.io': 'baremetal' });
    expect(login.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'BareMetalSwitch', name: 'switch-1' })]);

    const ironic = await readSwitchConfigAsIronic(env, file);
    expect(ironic).toEqual({ count: 1, sections: { 'genericswitch:switch-1': {
      ip: '127.0.0.1', port: '2222', device_type: 'netmiko_cisco_ios', username: 'admin', password: PASSWORD, ngs_mac_address: '00:00:5e:00:53:01', ngs_save_configuration: 'False',
    } } });
  });

  it('puts an SSH key switch\'s key in the credentials Secret and a key_file line in the file, in name order', async () => {
    await applyJson(secret('switch-0-login', { username: 'root', 'ssh-privatekey': SSH_KEY, 'admin-password': 'switch-0-enable-secret' }));
    await applyJson(bareMetalSwitch('switch-0', { macAddress: '00:00:5E:00:53:00', deviceType: 'netmiko_dell_os10', disableCertificateVerification: true }));
    const file = await waitForConfig('switch-0 in the configuration', (text) => text.includes('[switch:switch-0]'));
    expect(file.indexOf('[switch:switch-0]')).toBeLessThan(file.indexOf('[switch:switch-1]'));
    expect(file).toContain(`[switch:switch-0]\naddress=127.0.0.1\nmac_address=00:00:5E:00:53:00\ndriver_type=generic-switch\ndevice_type=netmiko_dell_os10\ninsecure=true\n` +
      `username=root\nkey_file=${KEY_PATH}/00-00-5E-00-53-00.key\nenable_secret=switch-0-enable-secret\n\n`);
    expect(file).not.toContain('BEGIN OPENSSH');
    const keys = await readSecret(KEYS);
    expect(Object.keys(keys.data ?? {})).toEqual(['00-00-5E-00-53-00.key']);
    expect(decoded(keys.data?.['00-00-5E-00-53-00.key'])).toBe(SSH_KEY);
    const ironic = await readSwitchConfigAsIronic(env, file);
    expect(ironic.sections['genericswitch:switch-0']).toMatchObject({ key_file: `${KEY_PATH}/00-00-5E-00-53-00.key`, secret: 'switch-0-enable-secret', device_type: 'netmiko_dell_os10' });
  });

  it('follows an edit of a login Secret', async () => {
    await applyJson(secret('switch-1-login', { username: 'admin', password: 'rotated-password' }));
    const file = await waitForConfig('the rotated password', (text) => text.includes('password=rotated-password'));
    expect(file).not.toContain(PASSWORD);
  });

  it('leaves out a switch whose login Secret is missing, says why, and takes it in once the Secret exists', async () => {
    await applyJson(bareMetalSwitch('switch-2', { macAddress: '00:00:5e:00:53:02' }));
    expect(await waitForValid('switch-2', 'False')).toMatchObject({ reason: 'CredentialError', message: `credentials secret ${namespace}/switch-2-login not found` });
    expect(await configFile()).not.toContain('switch-2');
    const events = await waitFor(async () => {
      const list = await kubectl.json<{ items: { reason: string; type: string; note?: string; regarding: { name: string } }[] }>(['get', 'events.v1.events.k8s.io', '-n', namespace, '-o', 'json']);
      const found = list.items.filter((event) => event.regarding.name === 'switch-2' && event.reason === 'CredentialError');
      return found.length > 0 ? found : undefined;
    }, { timeoutMs: 30_000, what: 'a CredentialError event for switch-2' });
    expect(events[0]).toMatchObject({ type: 'Warning', note: `credentials secret ${namespace}/switch-2-login not found` });

    await applyJson(secret('switch-2-login', { username: 'admin', password: 'two' }));
    await waitForConfig('switch-2 in the configuration', (text) => text.includes('[switch:switch-2]'));
    expect(await waitForValid('switch-2', 'True')).toMatchObject({ reason: 'Reconciled' });
  });

  it('takes a deleted switch and its key out, and keeps every password out of the operator\'s log', async () => {
    await kubectl.ok(['delete', 'baremetalswitch', 'switch-0', '-n', namespace]);
    const file = await waitForConfig('switch-0 gone from the configuration', (text) => !text.includes('switch-0'));
    expect(file).toContain('[switch:switch-1]');
    expect(file).toContain('[switch:switch-2]');
    await waitFor(async () => (Object.keys((await readSecret(KEYS)).data ?? {}).length === 0 ? true : undefined), { timeoutMs: 30_000, what: 'the key of switch-0 removed' });
    const log = readFileSync(join(env.stateDir, 'logs', `operator-switches-${namespace}.log`), 'utf8');
    expect(log).toContain('BareMetalSwitch reconciled');
    for (const secretValue of [PASSWORD, 'rotated-password', 'switch-0-enable-secret', 'c3dpdGNoLTI=']) expect(log).not.toContain(secretValue);
  });
});
