import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OPERATOR_IDENTITY } from '../../../hack/stack/controller-identity.ts';
import { prepareOperatorWebhook, type OperatorWebhook } from '../../../hack/stack/operator-webhook.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl, type KubectlResult } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { StopWaiting, waitFor } from '../../support/wait-for.ts';

type Manifest = Record<string, unknown>;

const DENIED = 'admission webhook "hostnetworkattachment.metal3.io" denied the request: ';
const STORAGE = 'storage-trunk';
const TRUNK = { mode: 'trunk', nativeVLAN: 200, allowedVLANs: ['200-203'], mtu: 9000 };
const MAC = '00:11:22:33:44:55';

/**
 * BMO's HostNetworkAttachment webhook served by the real operator process (fixture provisioner)
 * and called by the real API server through kubectl, on create, update and delete. Unlike the
 * other webhook files the operator watches the namespace of the objects: an attachment is in use
 * when a BareMetalHost in the operator's cache refers to it.
 */
describe('HostNetworkAttachment validating webhook', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let webhook: OperatorWebhook | undefined;
  let operator: OperatorProcess | undefined;

  const attachment = (name: string, spec: Manifest): Manifest =>
    ({ apiVersion: 'metal3.io/v1alpha1', kind: 'HostNetworkAttachment', metadata: { name, namespace }, spec });
  const apply = (object: Manifest) => kubectl.run(['apply', '-f', '-'], JSON.stringify(object));
  const hna = (...args: string[]) => kubectl.run([...args, '-n', namespace]);
  const patchSpec = (name: string, spec: Manifest) => hna('patch', 'hostnetworkattachment', name, '--type=merge', '-p', JSON.stringify({ spec }));
  const storedSpec = async (name: string) => (await kubectl.json<{ spec: Manifest }>(['get', 'hostnetworkattachment', name, '-n', namespace])).spec;
  /** The webhook's refusal as kubectl printed it, without kubectl's prefix or any warning line. */
  const refusal = (stderr: string) => {
    const line = stderr.split('\n').find((text) => text.includes('admission webhook')) ?? stderr;
    return line.slice(line.indexOf('admission webhook')).trim();
  };
  /** Runs a change the webhook checks against the operator's host cache again while that cache is still filling. */
  const onceCacheSynced = (change: () => Promise<KubectlResult>) => waitFor(async () => {
    const result = await change();
    return result.stderr.includes('cache of this replica is not synced') ? undefined : result;
  }, { timeoutMs: 60_000, intervalMs: 250, what: 'the operator\'s BareMetalHost cache to be synced' });
  const references = () => `${namespace}/web-0[eno1], ${namespace}/web-0[${MAC}]`;

  beforeAll(async () => {
    await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
    await kubectl.ok(['wait', '--for=condition=Established', '--timeout=60s', 'crd/baremetalhosts.metal3.io', 'crd/hostnetworkattachments.metal3.io']);
    namespace = await createUniqueNamespace(kubectl, 'webhook-hna');
    webhook = await prepareOperatorWebhook({ target: env, dir: join(env.stateDir, 'webhooks', namespace), name: `hna-${namespace}`, namespace });
    operator = startOperatorProcess({ env, namespace, label: `webhook-${namespace}`, extraEnv: { PROVISIONER: 'fixture', ...webhook.operatorEnv } });
    await webhook.register(operator.process);
  }, 120_000);

  afterAll(async () => {
    // Unregistered first: with failurePolicy Fail nothing in the namespace could be deleted without the server.
    await webhook?.unregister();
    await operator?.stop();
    if (namespace) await deleteNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  it("refuses on create what BMO refuses, with BMO's messages, and stores none of it", async () => {
    const access = await apply(attachment('access-tagged', { mode: 'access', nativeVLAN: 100, allowedVLANs: ['101'] }));
    expect({ code: access.code, error: refusal(access.stderr) }).toEqual({ code: 1, error: `${DENIED}allowedVLANs cannot be specified for access mode` });
    const ranges = await apply(attachment('bad-ranges', { mode: 'trunk', nativeVLAN: 200, allowedVLANs: ['300-200', '4095', '99999999999999999999'] }));
    expect({ code: ranges.code, error: refusal(ranges.stderr) }).toEqual({ code: 1, error: `${DENIED}[allowedVLANs[0] "300-200": range start (300) must be less than end (200), `
      + 'allowedVLANs[1] "4095": VLAN ID 4095 out of range 1-4094, '
      + 'allowedVLANs[2] "99999999999999999999": invalid VLAN ID: strconv.Atoi: parsing "99999999999999999999": value out of range]' });
    const stored = await kubectl.json<{ items: unknown[] }>(['get', 'hostnetworkattachments', '-n', namespace]);
    expect(stored.items).toEqual([]);
  });

  it("creates good attachments with BMO's default mode and printer columns; an unused one may change", async () => {
    expect((await apply(attachment(STORAGE, TRUNK))).stderr).toBe('');
    expect((await apply(attachment('mgmt', { nativeVLAN: 100, mtu: 1500 }))).stderr).toBe('');
    expect(await storedSpec('mgmt')).toEqual({ mode: 'access', nativeVLAN: 100, mtu: 1500 });
    const table = await kubectl.ok(['get', 'hostnetworkattachment', STORAGE, '-n', namespace]);
    expect(table.split('\n')[0]?.split(/\s{2,}/)).toEqual(['NAME', 'MODE', 'NATIVE VLAN', 'AGE']);
    expect(table.split('\n')[1]?.split(/\s+/).slice(0, 3)).toEqual([STORAGE, 'trunk', '200']);
    // No host refers to it: the operator's cache is read and the change allowed.
    expect((await onceCacheSynced(() => patchSpec('mgmt', { nativeVLAN: 101 }))).stderr).toBe('');
    expect(await storedSpec('mgmt')).toMatchObject({ nativeVLAN: 101 });
  });

  it('keeps an attachment a host refers to: no delete, no spec change, until the host lets go', async () => {
    const host = {
      apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: 'web-0', namespace },
      spec: { online: false, networkInterfaces: [
        { name: 'eno1', hostNetworkAttachment: { name: STORAGE } },
        { macAddress: MAC, hostNetworkAttachment: { name: STORAGE, namespace } },
      ] },
    };
    expect((await apply(host)).stderr).toBe('');
    // A server-side dry run goes through the webhook without deleting: it says when the operator's cache has the host.
    await waitFor(async () => {
      const dryRun = await hna('delete', 'hostnetworkattachment', STORAGE, '--dry-run=server');
      if (dryRun.code === 0) return undefined;
      // Kept as the last error if the wait times out.
      if (!dryRun.stderr.includes('referenced by BMH interfaces')) throw new Error(`dry-run delete refused otherwise: ${dryRun.stderr}`);
      return true;
    }, { timeoutMs: 60_000, intervalMs: 250, what: 'the operator\'s cache to see the host referring to the attachment' });

    const deletion = await hna('delete', 'hostnetworkattachment', STORAGE);
    expect(deletion.code).toBe(1);
    expect(refusal(deletion.stderr)).toBe(
      `${DENIED}hostnetworkattachments.metal3.io "${STORAGE}" is forbidden: cannot delete attachment while referenced by BMH interfaces: ${references()}`);
    expect(deletion.stderr).toContain(`Warning: This attachment is referenced by: ${references()}`);

    const edit = await patchSpec(STORAGE, { mtu: 1500 });
    expect({ code: edit.code, error: refusal(edit.stderr) })
      .toEqual({ code: 1, error: `${DENIED}HostNetworkAttachment spec is immutable while referenced by BMH interfaces: ${references()}` });
    // Metadata is not the spec: a label still goes on.
    expect((await hna('label', 'hostnetworkattachment', STORAGE, 'purpose=storage')).stderr).toBe('');
    expect(await storedSpec(STORAGE)).toEqual(TRUNK);

    expect((await kubectl.run(['patch', 'bmh', 'web-0', '-n', namespace, '--type=json', '-p', JSON.stringify([{ op: 'remove', path: '/spec/networkInterfaces' }])])).stderr).toBe('');
    // Refused until the operator's cache has the host without its interfaces; then deleted.
    await waitFor(async () => {
      const retry = await hna('delete', 'hostnetworkattachment', STORAGE);
      if (retry.code === 0) return true;
      if (!retry.stderr.includes('cannot delete attachment while referenced by BMH interfaces')) throw new StopWaiting(`delete failed otherwise: ${retry.stderr}`);
      return undefined;
    }, { timeoutMs: 60_000, intervalMs: 250, what: 'the delete allowed once the host no longer refers to the attachment' });
    const gone = await hna('get', 'hostnetworkattachment', STORAGE);
    expect(gone.stderr).toContain('NotFound');
  });

  it('answers on a standby replica too, listing the hosts from the API server (its cache fills only once it leads)', async () => {
    expect((await apply(attachment('backup', TRUNK))).stderr).toBe('');
    const host = {
      apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: 'web-1', namespace },
      spec: { online: false, networkInterfaces: [{ name: 'eno2', hostNetworkAttachment: { name: 'backup' } }] },
    };
    expect((await apply(host)).stderr).toBe('');
    // Two replicas with leader election, as a Deployment rolling over: the first leads, the second
    // (started once the first holds the Lease) serves the webhook.
    await operator?.stop();
    // The Lease goes where the operator's ServiceAccount may keep one, as in deploy/.
    const lease = { name: `hna-webhook-${namespace}`, namespace: OPERATOR_IDENTITY.namespace };
    const election = { PROVISIONER: 'fixture', LEADER_ELECT: 'true', LEADER_ELECTION_ID: lease.name, LEADER_ELECTION_NAMESPACE: lease.namespace };
    const leader = startOperatorProcess({ env, namespace, label: `webhook-leader-${namespace}`, extraEnv: election });
    try {
      await waitFor(async () => {
        const held = await kubectl.run(['get', 'lease', lease.name, '-n', lease.namespace, '-o', 'jsonpath={.spec.holderIdentity}']);
        return held.code === 0 && held.stdout.trim() !== '' ? true : undefined;
      }, { timeoutMs: 60_000, what: 'the first replica to hold the Lease' });
      const standbyLabel = `webhook-standby-${namespace}`;
      operator = startOperatorProcess({ env, namespace, label: standbyLabel, extraEnv: { ...election, ...webhook!.operatorEnv } });
      const deletion = await waitFor(async () => {
        const attempt = await hna('delete', 'hostnetworkattachment', 'backup');
        if (attempt.code === 0) throw new StopWaiting('the standby let an attachment in use be deleted');
        return attempt.stderr.includes('admission webhook') ? attempt : undefined;
      }, { timeoutMs: 60_000, intervalMs: 500, what: 'the standby replica\'s webhook to answer' });
      expect(refusal(deletion.stderr)).toBe(
        `${DENIED}hostnetworkattachments.metal3.io "backup" is forbidden: cannot delete attachment while referenced by BMH interfaces: ${namespace}/web-1[eno2]`);
      const standbyLog = readFileSync(join(env.stateDir, 'logs', `operator-${standbyLabel}.log`), 'utf8');
      expect(standbyLog).toContain('attempting to acquire leader lease');
      expect(standbyLog).not.toContain('successfully acquired lease');
    } finally {
      await leader.stop();
      await kubectl.run(['delete', 'lease', lease.name, '-n', lease.namespace, '--ignore-not-found']);
    }
  });
});
