import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hostObjects } from '../../../hack/dev/sample-hosts.ts';
import { startKubeControllers, type KubeControllers } from '../../../hack/stack/kube-controllers.ts';
import { isAlive } from '../../../hack/stack/processes.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { inState, recordsSince, serverRecords, sushyPowerState, tearDownHostTest, waitForHost } from './hosts.ts';

// `kubectl delete namespace` with hosts in it, as in a real cluster: Kubernetes' namespace
// controller deletes every object of the namespace at once (the hosts, their BMC Secrets,
// HardwareData, firmware settings) and the API server refuses anything new there, events
// included. The operator must still deprovision and power off the servers, take them out of
// Ironic and let go of what it holds, or the namespace never goes. This file starts
// kube-controller-manager's namespace controller and garbage collector for itself, so it runs
// alone (exclusive-files.ts), on servers 84-85 borrowed from operator-kills' large run.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const minutes = (n: number) => n * 60_000;
const SERVERS = { provisioned: 84, idle: 85 } as const;
const IRONIC_VERSION = { 'x-openstack-ironic-api-version': '1.95' };
const image = env.images[0]!;

let namespace = '';
let operator: OperatorProcess | undefined;
let controllers: KubeControllers | undefined;

const namespaceGone = async () => ((await kubectl.run(['get', 'namespace', namespace])).code === 0 ? undefined : true);

beforeAll(async () => {
  controllers = await startKubeControllers({ env, stateDir: env.stateDir, name: 'namespace-controller-e2e',
    controllers: ['namespace-controller', 'garbage-collector-controller'] });
  namespace = await createUniqueNamespace(kubectl, 'e2e-namespace-deletion');
  operator = startOperatorProcess({ env, namespace, label: namespace });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    ...hostObjects({ env, namespace, hosts: [
      { name: 'provisioned', system: env.systems[SERVERS.provisioned]!, spec: { automatedCleaningMode: 'metadata',
        image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' } } },
      { name: 'idle', system: env.systems[SERVERS.idle]!, spec: { online: false, automatedCleaningMode: 'disabled' } },
    ] }),
  ] }));
}, minutes(3));

afterAll(async () => {
  // Only an interrupted run leaves something here: the namespace is gone when the test passes.
  if (namespace && !(await namespaceGone())) await tearDownHostTest({ env, kubectl, namespace, operator });
  else await operator?.stop();
  await controllers?.stop();
  kubectl.dispose();
}, minutes(6));

describe('a namespace deleted with its hosts in it', () => {
  it('goes once the operator has deprovisioned, powered off and unregistered its servers', async () => {
    const provisioned = await waitForHost(kubectl, namespace, 'provisioned', inState('provisioned'), { timeoutMs: minutes(6), failOnError: true });
    const idle = await waitForHost(kubectl, namespace, 'idle', inState('available'), { timeoutMs: minutes(3), failOnError: true });
    const nodes = [provisioned.status!.provisioning!.ID!, idle.status!.provisioning!.ID!];
    const provisionedServer = env.systems[SERVERS.provisioned]!.uuid;
    const before = await serverRecords(env, provisionedServer);
    expect(await sushyPowerState(env, provisionedServer)).toBe('On');
    // What the namespace controller has to wait for: the operator's finalizers.
    expect((await kubectl.ok(['get', 'secret', 'provisioned-bmc-secret', '-n', namespace, '-o', 'jsonpath={.metadata.finalizers}'])))
      .toContain('baremetalhost.metal3.io/secret');
    expect((await kubectl.ok(['get', 'hardwaredata', 'provisioned', '-n', namespace, '-o', 'jsonpath={.metadata.finalizers}'])))
      .toContain('baremetalhost.metal3.io/hardwareData');

    await kubectl.ok(['delete', 'namespace', namespace, '--wait=false']);
    let lastHosts = '';
    await waitFor(async () => {
      if (await namespaceGone()) return true;
      lastHosts = (await kubectl.run(['get', 'bmh', '-n', namespace, '-o', 'custom-columns=NAME:.metadata.name,STATE:.status.provisioning.state,ERROR:.status.errorMessage', '--no-headers'])).stdout;
      return undefined;
    }, { timeoutMs: minutes(5), intervalMs: 1_000, what: `namespace ${namespace} to be deleted` }).catch((error: Error) => {
      throw new Error(`${error.message}; hosts left: ${lastHosts.trim() || 'none'}`);
    });

    // The servers went through a real deletion: Ironic has neither node, both are off, and the
    // provisioned one was cleaned (metadata) before it was let go.
    for (const node of nodes) expect((await fetch(`${env.ironicUrl}/v1/nodes/${node}`, { headers: IRONIC_VERSION })).status).toBe(404);
    for (const server of Object.values(SERVERS)) expect(await sushyPowerState(env, env.systems[server]!.uuid)).toBe('Off');
    expect(recordsSince(await serverRecords(env, provisionedServer), before).diskWipes).not.toEqual([]);
    // The operator lived through the namespace's refusals (every new object, events and
    // re-created firmware settings among them) without taking them for errors to retry.
    expect(isAlive(operator!.process.pid)).toBe(true);
    const errors = readFileSync(operator!.process.logPath, 'utf8').split('\n').filter((line) => line.includes('"level":"error"'));
    expect(errors).toEqual([]);
  }, minutes(12));
});
