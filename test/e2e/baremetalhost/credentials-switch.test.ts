import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hostObjects } from '../../../hack/dev/sample-hosts.ts';
import { ironicApiRequests } from '../../support/ironic-log.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { inState, tearDownHostTest, waitForHost } from './hosts.ts';

// A BMC password rotated the way many users do it: a new Secret, the host's
// spec.bmc.credentialsName pointed at it, the old Secret deleted. BMO keeps its finalizer and
// owner reference on the old Secret until the host itself is deleted, so that deletion hangs;
// here the host lets go of it once Ironic took the new credentials. Server 101 is this file's own.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const minutes = (n: number) => n * 60_000;
const SERVER = 101;
const HOST = 'rotated';
const OLD = `${HOST}-bmc-secret`;
const NEW = `${HOST}-bmc-secret-2026`;

let namespace = '';
let operator: OperatorProcess | undefined;

interface SecretMeta { metadata: { finalizers?: string[]; ownerReferences?: { kind: string; name: string }[]; deletionTimestamp?: string } }
interface Credentials { credentials?: { name?: string }; credentialsVersion?: string }

const secret = async (name: string): Promise<SecretMeta | undefined> => {
  const result = await kubectl.run(['get', 'secret', name, '-n', namespace, '-o', 'json']);
  if (result.code === 0) return JSON.parse(result.stdout) as SecretMeta;
  if (result.stderr.includes('NotFound')) return undefined;
  throw new Error(`kubectl get secret ${name}: ${result.stderr}`);
};
const ourHold = (found: SecretMeta | undefined) => ({
  finalizer: found?.metadata.finalizers?.includes('baremetalhost.metal3.io/secret') ?? false,
  owners: (found?.metadata.ownerReferences ?? []).map((ref) => `${ref.kind}/${ref.name}`),
});

beforeAll(async () => {
  namespace = await createUniqueNamespace(kubectl, 'e2e-credentials-switch');
  operator = startOperatorProcess({ env, namespace, label: namespace });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: hostObjects({ env, namespace, hosts: [{
    name: HOST, system: env.systems[SERVER]!, annotations: { 'inspect.metal3.io': 'disabled' }, spec: { online: false },
  }] }) }));
}, minutes(2));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
  kubectl.dispose();
}, minutes(5));

describe('a host pointed at a new BMC Secret', () => {
  it('lets go of the old one once the new credentials are good, so deleting the old Secret finishes', async () => {
    await waitForHost(kubectl, namespace, HOST, inState('available'), { timeoutMs: minutes(3), failOnError: true });
    expect(ourHold(await secret(OLD))).toEqual({ finalizer: true, owners: [`BareMetalHost/${HOST}`] });

    await kubectl.ok(['create', 'secret', 'generic', NEW, '-n', namespace,
      `--from-literal=username=${env.bmcCredentials!.username}`, `--from-literal=password=${env.bmcCredentials!.password}`]);
    await kubectl.ok(['patch', 'bmh', HOST, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { bmc: { credentialsName: NEW } } })]);
    // Ironic took them: registration ran again with the new Secret and the BMC answered.
    const host = await waitForHost(kubectl, namespace, HOST,
      (found) => ((found.status as { goodCredentials?: Credentials } | undefined)?.goodCredentials?.credentials?.name === NEW),
      { timeoutMs: minutes(2), failOnError: true });
    expect(host.status?.operationalStatus).toBe('OK');
    expect(host.status?.provisioning?.state).toBe('available');
    expect(ourHold(await secret(NEW))).toEqual({ finalizer: true, owners: [`BareMetalHost/${HOST}`] });
    const released = await waitFor(async () => {
      const hold = ourHold(await secret(OLD));
      return !hold.finalizer && hold.owners.length === 0 ? hold : undefined;
    }, { timeoutMs: minutes(1), intervalMs: 500, what: `the host to let go of ${OLD}` });
    expect(released).toEqual({ finalizer: false, owners: [] });

    await kubectl.ok(['delete', 'secret', OLD, '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await secret(OLD)) === undefined ? true : undefined),
      { timeoutMs: minutes(1), intervalMs: 500, what: `${OLD} to be deleted` });
  });

  it('a label on it (CAPM3 adds one on every claim and release) is a new version the host registers with, but Ironic\'s node is not patched: it has those credentials', async () => {
    const since = new Date();
    await kubectl.ok(['label', 'secret', NEW, '-n', namespace, 'e2e.metal3-ts.test/claimed=yes']);
    // A label alone wakes no host (only the Secret's data, type or deletion do); a claim also writes the host.
    await kubectl.ok(['patch', 'bmh', HOST, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { description: 'claimed' } })]);
    const version = await kubectl.ok(['get', 'secret', NEW, '-n', namespace, '-o', 'jsonpath={.metadata.resourceVersion}']);
    // The host registered again for that version (as BMO does) and the BMC answered.
    const host = await waitForHost(kubectl, namespace, HOST,
      (found) => ((found.status as { goodCredentials?: Credentials } | undefined)?.goodCredentials?.credentialsVersion === version),
      { timeoutMs: minutes(2), failOnError: true });
    expect(host.status?.operationalStatus).toBe('OK');
    const nodeId = host.status!.provisioning!.ID!;
    // BMO sends the node's driver_info again here; Ironic's log shows no write to the node at all.
    const writes = ironicApiRequests(env, nodeId).filter((request) => request.at >= since && request.method !== 'GET');
    expect(writes).toEqual([]);
  });
});
