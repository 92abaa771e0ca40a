import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { startIronic, stopIronic } from '../../support/stack-control.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { tearDownHostTest, inState, waitForHost, type Host } from './hosts.ts';

// Ironic loses its database under running hosts: available (server 12), provisioned (13) and
// externally provisioned (14). Ironic is stopped, its sqlite database deleted and recreated
// empty, and Ironic started again, as when its pod restarts without persistent storage.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const run = promisify(execFile);
const minutes = (n: number) => n * 60_000;
const AVAILABLE = 12;
const PROVISIONED = 13;
const EXTERNAL = 14;
const imageSpec = { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' };

let namespace = '';
let operator: OperatorProcess;
const system = (index: number) => env.systems[index]!;

interface IronicNode {
  uuid: string;
  name: string;
  provision_state: string;
  instance_uuid: string | null;
  instance_info: Record<string, unknown>;
}

function host(name: string, index: number, spec: Record<string, unknown>) {
  return [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
    {
      apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace },
      spec: {
        bootMACAddress: system(index).macs[0],
        bmc: { address: system(index).redfishAddress, credentialsName: `${name}-bmc` },
        automatedCleaningMode: 'disabled',
        ...spec,
      },
    },
  ];
}

async function records(index: number): Promise<SystemRecords> {
  return (await (await fetch(`${env.agentSimulatorUrl}/records/${system(index).uuid}`)).json()) as SystemRecords;
}

async function nodeNamed(name: string): Promise<IronicNode | undefined> {
  const { nodes } = await ironic.request<{ nodes: IronicNode[] }>('GET', '/v1/nodes?fields=uuid,name');
  const found = nodes.find((node) => node.name === `${namespace}~${name}`);
  return found ? ironic.request<IronicNode>('GET', `/v1/nodes/${found.uuid}`) : undefined;
}

async function portsOf(nodeUuid: string): Promise<string[]> {
  const { ports } = await ironic.request<{ ports: { address: string }[] }>('GET', `/v1/ports?node_uuid=${nodeUuid}&fields=address`);
  return ports.map((port) => port.address.toLowerCase()).sort();
}

/** Ironic as after a restart without its database: same configuration, empty schema. */
async function loseIronicDatabase(): Promise<void> {
  await stopIronic();
  const dir = join(env.stateDir, 'ironic');
  rmSync(join(dir, 'ironic.sqlite'), { force: true });
  await run(join(env.ironicVenv, 'bin', 'ironic-dbsync'), ['--config-file', join(dir, 'ironic.conf'), 'create_schema']);
  await startIronic();
}

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-day2-dbloss');
  operator = startOperatorProcess({ env, namespace, label: 'day2-db-loss' });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: [
      ...host('available', AVAILABLE, { online: false }),
      ...host('provisioned', PROVISIONED, { online: true, image: imageSpec }),
      ...host('external', EXTERNAL, { online: true, externallyProvisioned: true, image: imageSpec }),
    ],
  }));
  await Promise.all([
    waitForHost(kubectl, namespace, 'available', inState('available'), { timeoutMs: minutes(6), failOnError: true }),
    waitForHost(kubectl, namespace, 'provisioned', inState('provisioned'), { timeoutMs: minutes(8), failOnError: true }),
    waitForHost(kubectl, namespace, 'external', inState('externally provisioned'), { timeoutMs: minutes(4), failOnError: true }),
  ]);
}, minutes(9));

/** How many Registered events the host got, repeats (an Event's count) included. */
async function registeredEvents(name: string): Promise<number> {
  const events = await kubectl.json<{ items: { count?: number }[] }>(['get', 'events', '-n', namespace, '--field-selector', `involvedObject.name=${name},reason=Registered`, '-o', 'json']);
  return events.items.reduce((total, event) => total + (event.count ?? 1), 0);
}

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('Ironic database loss', () => {
  it('registers every host again and adopts deployed ones with what their nodes carried, never re-imaging, cleaning or erroring', async () => {
    const names = ['available', 'provisioned', 'external'];
    const before = new Map<string, IronicNode>();
    for (const name of names) before.set(name, (await nodeNamed(name))!);
    const hardwareBefore = new Map<number, SystemRecords>();
    for (const index of [AVAILABLE, PROVISIONED, EXTERNAL]) hardwareBefore.set(index, await records(index));

    const registeredBefore = new Map<string, number>();
    for (const name of names) registeredBefore.set(name, await registeredEvents(name));

    await loseIronicDatabase();
    expect((await ironic.request<{ nodes: unknown[] }>('GET', '/v1/nodes')).nodes).toEqual([]);

    const errors: string[] = [];
    const hosts = await waitFor(async () => {
      const items = (await kubectl.json<{ items: Host[] }>(['get', 'bmh', '-n', namespace])).items;
      for (const item of items) if (item.status?.errorType) errors.push(`${item.metadata.name}: ${item.status.errorType}: ${item.status.errorMessage}`);
      const nodes = await Promise.all(names.map(nodeNamed));
      const settled = nodes.every((node, position) => {
        const item = items.find((candidate) => candidate.metadata.name === names[position]);
        const wanted = names[position] === 'available' ? 'manageable' : 'active';
        return node && node.provision_state === wanted && item?.status?.provisioning?.ID === node.uuid;
      });
      return settled ? items : undefined;
    }, { timeoutMs: minutes(5), intervalMs: 1_000, what: 'every host to be registered again and adopted' });
    expect(errors).toEqual([]);

    const byName = (name: string) => hosts.find((item) => item.metadata.name === name)!;
    expect(inState('available')(byName('available'))).toBe(true);
    expect(inState('provisioned')(byName('provisioned'))).toBe(true);
    expect(inState('externally provisioned')(byName('external'))).toBe(true);

    for (const name of names) {
      const node = (await nodeNamed(name))!;
      const old = before.get(name)!;
      expect(node.uuid).not.toBe(old.uuid);
      // The ports come back from the NICs inspection recorded (status / HardwareData).
      const nics = (byName(name).status?.hardware?.nics ?? []).map((nic) => nic.mac!.toLowerCase());
      expect(await portsOf(node.uuid)).toEqual(expect.arrayContaining([...new Set([system([AVAILABLE, PROVISIONED, EXTERNAL][names.indexOf(name)]!).macs[0]!, ...nics])]));
      // Each node carries what it did before.
      expect({ name, instance_uuid: node.instance_uuid }).toEqual({ name, instance_uuid: old.instance_uuid });
      if (name !== 'available') {
        expect(node.instance_uuid).toBe(byName(name).metadata.uid);
        expect(node.instance_info).toMatchObject({ image_source: image.url });
      }
    }

    // BMO's Registered event for each node made anew (a repeat is counted on the same Event).
    for (const name of names) {
      await waitFor(async () => ((await registeredEvents(name)) > registeredBefore.get(name)! ? true : undefined),
        { timeoutMs: minutes(1), intervalMs: 1_000, what: `a Registered event for ${name}'s new node` });
    }

    // Nothing was written to or wiped on any disk, nothing inspected again.
    for (const index of [AVAILABLE, PROVISIONED, EXTERNAL]) {
      const now = await records(index);
      const then = hardwareBefore.get(index)!;
      expect({ index, imageWrites: now.imageWrites.length, diskWipes: now.diskWipes.length, inspections: now.inspections.length })
        .toEqual({ index, imageWrites: then.imageWrites.length, diskWipes: then.diskWipes.length, inspections: then.inspections.length });
    }
  }, minutes(8));
});
