import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { startIronic, stopIronic } from '../../support/stack-control.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { getHost, hostEvents, inState, recordsSince, serverRecords, tearDownHostTest, waitForHost, type Host } from './hosts.ts';

// Ironic stops for a minute (its database kept) while one host is being inspected and another
// provisioned, then comes back. Ironic goes away for the whole stack, so `npm run test:stack`
// runs this file alone (test/support/exclusive-files.ts), which lets it borrow emulated servers
// 0 and 1 from redfish-lifecycle.test.ts: the two never run at the same time.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const OUTAGE_MS = 60_000;
const INSPECTED = { name: 'inspected', server: 0 };
const PROVISIONED = { name: 'provisioned', server: 1 };

let namespace = '';
let operator: OperatorProcess | undefined;

const system = (index: number) => env.systems[index]!;

function hostObject(host: { name: string; server: number }, options: { provision: boolean }) {
  return {
    apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
    metadata: { name: host.name, namespace, ...(options.provision ? { annotations: { 'inspect.metal3.io': 'disabled' } } : {}) },
    spec: {
      online: options.provision,
      bootMACAddress: system(host.server).macs[0],
      bmc: { address: system(host.server).redfishAddress, credentialsName: 'bmc' },
      automatedCleaningMode: 'disabled',
      ...(options.provision ? { image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' } } : {}),
    },
  };
}

const apply = (items: unknown[]) => kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
const unreachableEvents = async (name: string) => (await hostEvents(kubectl, namespace, name)).filter((line) => line.startsWith('ProvisionerUnreachable: '));

beforeAll(async () => {
  namespace = await createUniqueNamespace(kubectl, 'e2e-ironic-outage');
  operator = startOperatorProcess({ env, namespace, label: 'ironic-outage' });
  await apply([{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bmc', namespace }, stringData: env.bmcCredentials! }]);
}, minutes(2));

afterAll(async () => {
  await startIronic().catch(() => undefined);
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('the operator and an Ironic outage of a minute', () => {
  it('shows every waiting host that Ironic is unreachable, records no error, and finishes inspection and provisioning after it', async () => {
    const before = await Promise.all([serverRecords(env, system(INSPECTED.server).uuid), serverRecords(env, system(PROVISIONED.server).uuid)]);
    // Provisioning lasts longer than registering and entering inspection, so the inspected host
    // is created once the other is provisioning, and both are mid-way when Ironic stops.
    await apply([hostObject(PROVISIONED, { provision: true })]);
    await waitForHost(kubectl, namespace, PROVISIONED.name, inState('provisioning'), { timeoutMs: minutes(3), failOnError: true });
    await apply([hostObject(INSPECTED, { provision: false })]);
    await waitForHost(kubectl, namespace, INSPECTED.name, inState('inspecting'), { timeoutMs: minutes(3), failOnError: true });

    await stopIronic();
    const stoppedAt = Date.now();
    let during: (Host | undefined)[] | undefined;
    try {
      expect((await getHost(kubectl, namespace, PROVISIONED.name))?.status?.provisioning?.state).toBe('provisioning');
      // What a user reads meanwhile (kubectl describe bmh): each host says Ironic does not answer.
      const events = await waitFor(async () => {
        const found = await Promise.all([INSPECTED, PROVISIONED].map((host) => unreachableEvents(host.name)));
        return found.every((list) => list.length > 0) ? found : undefined;
      }, { timeoutMs: OUTAGE_MS, intervalMs: 2_000, what: 'ProvisionerUnreachable events on both hosts' });
      for (const list of events) expect(list[0]).toMatch(/^ProvisionerUnreachable: Ironic at http:\/\/127\.0\.0\.1:\d+ is unreachable \(ECONNREFUSED\): the host keeps its state/);
      // The outage is the fault itself: it lasts its minute whatever the hosts do meanwhile.
      await new Promise((resolveWait) => setTimeout(resolveWait, Math.max(0, OUTAGE_MS - (Date.now() - stoppedAt))));
      during = await Promise.all([INSPECTED, PROVISIONED].map((host) => getHost(kubectl, namespace, host.name)));
    } finally {
      await startIronic();
    }
    // The events above prove the operator reconciled both hosts during the outage.
    expect(during?.map((host) => [host?.status?.provisioning?.state, host?.status?.errorType ?? ''])).toEqual([['inspecting', ''], ['provisioning', '']]);

    // Ironic fails what its conductor was doing itself when it stopped (a node inspecting or
    // deploying at that moment "can't be resumed ... Moving to fail state"): such a host records
    // that error and retries, as with BMO. What matters is where each host ends.
    const [inspected, provisioned] = await Promise.all([
      waitForHost(kubectl, namespace, INSPECTED.name, inState('available'), { timeoutMs: minutes(6) }),
      waitForHost(kubectl, namespace, PROVISIONED.name, inState('provisioned'), { timeoutMs: minutes(6) }),
    ]);
    for (const host of [inspected, provisioned]) {
      expect(host.status?.errorType ?? '').toBe('');
      expect(host.status?.operationalStatus).toBe('OK');
    }
    // On the hardware and in Ironic (where BMO, and so we, keep an available host's node
    // manageable): the first server inspected (again, if Ironic failed the first run), the
    // second imaged by the node the host ends with, its last write complete.
    const [inspectedRecords, provisionedRecords] = (await Promise.all([
      serverRecords(env, system(INSPECTED.server).uuid), serverRecords(env, system(PROVISIONED.server).uuid),
    ])).map((records, index) => recordsSince(records, before[index]!));
    expect(inspectedRecords!.inspections.length).toBeGreaterThanOrEqual(1);
    expect(inspected.status?.hardware?.cpu?.count).toBeGreaterThan(0);
    expect(provisionedRecords!.imageWrites.at(-1)).toMatchObject({ nodeUuid: provisioned.status?.provisioning?.ID, outcome: 'written', url: image.url });
    const nodes = await Promise.all([inspected, provisioned].map((host) =>
      ironic.request<{ provision_state: string; last_error: string | null }>('GET', `/v1/nodes/${host.status?.provisioning?.ID}`)));
    expect(nodes.map((node) => node.provision_state)).toEqual(['manageable', 'active']);
  }, minutes(14));
});
