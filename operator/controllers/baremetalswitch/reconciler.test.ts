import { describe, expect, it } from '@jest/globals';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import { silentLogger } from '../../runtime/logger.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import type { ClaimOptions, SecretObject } from '../../secrets/index.ts';
import { BareMetalSwitchReconciler, MISSING_SECRET_RETRY_MS } from './reconciler.ts';

const NAMESPACE = 'metal3';
const NAMES = { configSecretName: 'metal3-switch-configs', credentialsSecretName: 'metal3-switch-credentials', credentialsPath: '/etc/ironic/switch-credentials' };
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const text = (value: string | undefined) => Buffer.from(value ?? '', 'base64').toString('utf8');

const aSwitch = (name: string, spec: Record<string, unknown> = {}, status?: Record<string, unknown>): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalSwitch',
  metadata: { namespace: NAMESPACE, name, uid: `uid-${name}`, generation: 3, resourceVersion: '7' },
  spec: { address: '127.0.0.1', macAddress: '00:00:5e:00:53:01', deviceType: 'netmiko_cisco_ios', credentials: { name: `${name}-creds` }, ...spec },
  ...(status ? { status } : {}),
});
const secret = (name: string, data: Record<string, string>): SecretObject => ({
  apiVersion: 'v1', kind: 'Secret', metadata: { namespace: NAMESPACE, name, resourceVersion: '1' },
  data: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, base64(value)])),
});

/** The two output Secrets made by the deployment, plus the given credentials Secrets. */
function setUp(options: { switches: KubeObject[]; secrets?: SecretObject[]; outputSecrets?: boolean }) {
  const stored = new Map<string, SecretObject>();
  for (const s of options.secrets ?? []) stored.set(s.metadata.name ?? '', s);
  if (options.outputSecrets !== false) {
    stored.set(NAMES.configSecretName, secret(NAMES.configSecretName, {}));
    stored.set(NAMES.credentialsSecretName, secret(NAMES.credentialsSecretName, { 'stale.key': 'old' }));
  }
  const claims: { name: string; owner?: ClaimOptions['owner'] }[] = [];
  const dataWrites: string[] = [];
  const statusPatches: { name: string; status: { conditions: { type: string; status: string; reason: string; message: string; observedGeneration?: number }[] } }[] = [];
  const events: string[] = [];
  const secrets = {
    claim: async (name: ObjectName, claim: ClaimOptions) => {
      claims.push({ name: name.name, ...(claim.owner ? { owner: claim.owner } : {}) });
      return stored.get(name.name);
    },
    replaceData: async (name: ObjectName, data: Record<string, string>) => {
      const current = stored.get(name.name);
      if (!current) return false;
      if (JSON.stringify(current.data) !== JSON.stringify(data)) dataWrites.push(name.name);
      stored.set(name.name, { ...current, data });
      return true;
    },
  };
  const client = {
    patch: async (name: ObjectName, patch: { status: (typeof statusPatches)[number]['status'] }) => {
      statusPatches.push({ name: name.name, status: patch.status });
      return aSwitch(name.name);
    },
  } as unknown as ResourceClient<KubeObject>;
  const reconciler = new BareMetalSwitchReconciler({
    switches: { client, cache: { list: (namespace?: string) => options.switches.filter((s) => s.metadata.namespace === namespace) } },
    secrets,
    names: NAMES,
    events: { event: (_object: KubeObject, event: { type: string; reason: string; note?: string }) => events.push(`${event.type} ${event.reason}: ${event.note ?? ''}`) } as never,
  });
  const reconcile = (name: string) =>
    reconciler.reconcile({ namespace: NAMESPACE, name }, { log: silentLogger(), signal: new AbortController().signal, reconcileID: 'r', controller: 'baremetalswitch' });
  const config = () => text(stored.get(NAMES.configSecretName)?.data?.['switch-configs.conf']);
  const keyFiles = () => stored.get(NAMES.credentialsSecretName)?.data;
  return { reconcile, config, keyFiles, claims, dataWrites, statusPatches, events };
}

describe('BareMetalSwitchReconciler', () => {
  const credentials = [
    secret('switch-1-creds', { username: 'admin', password: 'secret123' }),
    secret('switch-2-creds', { username: 'root', 'ssh-privatekey': 'KEY\n' }),
  ];

  it('writes every switch of the namespace in name order, the SSH keys beside it, and marks the switch Valid', async () => {
    const run = setUp({ switches: [aSwitch('switch-2', { macAddress: '00:00:5e:00:53:02' }), aSwitch('switch-1')], secrets: credentials });
    await expect(run.reconcile('switch-1')).resolves.toEqual({});
    expect(run.config()).toBe(
      '# This file is managed by the Baremetal Operator\n\n' +
      '[switch:switch-1]\naddress=127.0.0.1\nmac_address=00:00:5e:00:53:01\ndriver_type=generic-switch\ndevice_type=netmiko_cisco_ios\nusername=admin\npassword=secret123\n\n' +
      '[switch:switch-2]\naddress=127.0.0.1\nmac_address=00:00:5e:00:53:02\ndriver_type=generic-switch\ndevice_type=netmiko_cisco_ios\nusername=root\nkey_file=/etc/ironic/switch-credentials/00-00-5e-00-53-02.key\n\n',
    );
    // The credentials Secret's data is replaced as a whole: the stale key goes.
    expect(run.keyFiles()).toEqual({ '00-00-5e-00-53-02.key': base64('KEY\n') });
    // Each credentials Secret is claimed for its switch, so an edit of it wakes that switch.
    expect(run.claims).toEqual([
      { name: 'switch-2-creds', owner: { kind: 'BareMetalSwitch', name: 'switch-2', uid: 'uid-switch-2' } },
      { name: 'switch-1-creds', owner: { kind: 'BareMetalSwitch', name: 'switch-1', uid: 'uid-switch-1' } },
    ]);
    expect(run.statusPatches).toEqual([{ name: 'switch-1', status: { conditions: [expect.objectContaining({
      type: 'Valid', status: 'True', reason: 'Reconciled', observedGeneration: 3, message: 'Switch configuration has been successfully reconciled into the config secret',
    })] } }]);
    expect(run.events).toEqual([]);
  });

  it('writes nothing when the Secrets and the condition already say it all', async () => {
    const valid = { conditions: [{ type: 'Valid', status: 'True', reason: 'Reconciled', observedGeneration: 3, lastTransitionTime: '2026-12-06T00:00:00Z', message: 'Switch configuration has been successfully reconciled into the config secret' }] };
    const run = setUp({ switches: [aSwitch('switch-1', {}, valid)], secrets: credentials });
    await run.reconcile('switch-1');
    run.dataWrites.length = 0;
    await run.reconcile('switch-1');
    expect(run.dataWrites).toEqual([]);
    expect(run.statusPatches).toEqual([]);
  });

  it('leaves out a switch whose credentials Secret is missing, says so once, and looks again in 10 s', async () => {
    const run = setUp({ switches: [aSwitch('switch-1'), aSwitch('switch-3')], secrets: credentials });
    await expect(run.reconcile('switch-3')).resolves.toEqual({ requeueAfter: MISSING_SECRET_RETRY_MS });
    expect(run.config()).toContain('[switch:switch-1]');
    expect(run.config()).not.toContain('switch-3');
    expect(run.statusPatches.at(-1)?.status.conditions).toEqual([expect.objectContaining({ status: 'False', reason: 'CredentialError', message: 'credentials secret metal3/switch-3-creds not found' })]);
    expect(run.events).toEqual(['Warning CredentialError: credentials secret metal3/switch-3-creds not found']);
  });

  it('does not retry on its own for a Secret that exists but lacks a key (editing it wakes the switch)', async () => {
    const run = setUp({ switches: [aSwitch('switch-1')], secrets: [secret('switch-1-creds', { username: 'admin' })] });
    await expect(run.reconcile('switch-1')).resolves.toEqual({});
    expect(run.statusPatches.at(-1)?.status.conditions[0]).toMatchObject({ status: 'False', reason: 'CredentialError', message: "credentials secret switch-1-creds missing 'password' or 'ssh-privatekey' key" });
  });

  it('refuses credentials in another namespace, and a switch without any, without failing the others', async () => {
    const run = setUp({ switches: [aSwitch('switch-1'), aSwitch('elsewhere', { credentials: { name: 'c', namespace: 'other' } }), aSwitch('none', { credentials: undefined })], secrets: credentials });
    await run.reconcile('elsewhere');
    expect(run.statusPatches.at(-1)?.status.conditions[0]?.message).toBe("credentials secret other/c must be in the switch's namespace metal3");
    await run.reconcile('none');
    expect(run.statusPatches.at(-1)?.status.conditions[0]?.message).toBe('credentials secret reference is not set');
    expect(run.claims.map((claim) => claim.name)).not.toContain('c');
    expect(run.config()).toContain('[switch:switch-1]');
  });

  it('names the missing output Secret and its variable on every switch, and looks again', async () => {
    const run = setUp({ switches: [aSwitch('switch-1')], secrets: credentials, outputSecrets: false });
    await expect(run.reconcile('switch-1')).resolves.toEqual({ requeueAfter: MISSING_SECRET_RETRY_MS });
    expect(run.statusPatches.at(-1)?.status.conditions[0]).toMatchObject({
      status: 'False', reason: 'ConfigSecretError',
      message: 'switch configuration not written: Secret metal3/metal3-switch-configs (IRONIC_SWITCH_CONFIGS_SECRET) not found; Secret metal3/metal3-switch-credentials (IRONIC_SWITCH_CREDENTIALS_SECRET) not found' +
        " (the deployment of Ironic's networking service provides them)",
    });
  });

  it('takes a deleted switch out of the file without a status write', async () => {
    const switches = [aSwitch('switch-1'), aSwitch('switch-2', { macAddress: '00:00:5e:00:53:02' })];
    const run = setUp({ switches, secrets: credentials });
    await run.reconcile('switch-2');
    expect(run.config()).toContain('[switch:switch-2]');
    switches.pop();
    run.statusPatches.length = 0;
    await expect(run.reconcile('switch-2')).resolves.toEqual({});
    expect(run.config()).not.toContain('switch-2');
    expect(run.keyFiles()).toEqual({});
    expect(run.statusPatches).toEqual([]);
  });
});
