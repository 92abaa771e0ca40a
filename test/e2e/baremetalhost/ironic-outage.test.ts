import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { startIronic, stopIronic } from '../../support/stack-control.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { getHost, inState, tearDownHostTest, waitForHost } from './hosts.ts';

// Ironic stops (its database kept) under an available host on the stack's IPMI BMC while spec
// changes make the operator call it, then comes back. Ironic goes away for the whole stack, so
// `npm run test:stack` runs this file alone (test/support/exclusive-files.ts); the IPMI BMC is
// also redfish-lifecycle.test.ts's, which never runs at the same time.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const minutes = (n: number) => n * 60_000;

let namespace = '';
let operator: OperatorProcess | undefined;

beforeAll(async () => {
  namespace = await createUniqueNamespace(kubectl, 'e2e-ironic-outage');
  operator = startOperatorProcess({ env, namespace, label: 'ironic-outage' });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ipmi-bmc', namespace }, stringData: env.ipmiBmc.credentials },
    { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: 'ipmi', namespace, annotations: { 'inspect.metal3.io': 'disabled' } },
      spec: { online: false, bootMACAddress: env.ipmiBmc.bootMacAddress, bmc: { address: env.ipmiBmc.address, credentialsName: 'ipmi-bmc' } } },
  ] }));
}, minutes(2));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('the operator and an Ironic outage', () => {
  it('rides out an Ironic outage without recording an error', async () => {
    await waitForHost(kubectl, namespace, 'ipmi', inState('available'), { timeoutMs: minutes(3), failOnError: true });
    await stopIronic();
    try {
      // Spec changes make the operator reconcile, and so call Ironic, while it is down.
      for (const value of ['a', 'b', 'c']) {
        await kubectl.ok(['label', 'bmh', 'ipmi', '-n', namespace, `outage-probe=${value}`, '--overwrite']);
        await kubectl.ok(['patch', 'bmh', 'ipmi', '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { description: `outage ${value}` } })]);
        await new Promise((resolveWait) => setTimeout(resolveWait, 4_000));
      }
      const during = await getHost(kubectl, namespace, 'ipmi');
      expect(during?.status?.errorType ?? '').toBe('');
    } finally {
      await startIronic();
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 5_000));
    const ipmi = await getHost(kubectl, namespace, 'ipmi');
    expect(ipmi?.status?.provisioning?.state).toBe('available');
    expect(ipmi?.status?.errorType ?? '').toBe('');
    expect(ipmi?.status?.operationalStatus).toBe('OK');
  }, minutes(5));
});
