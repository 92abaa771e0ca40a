import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadSimulatorConfig } from '../../../hack/agent-simulator/config.ts';
import { buildInventory } from '../../../hack/agent-simulator/inventory.ts';
import type { Inventory } from '../../../hack/agent-simulator/inventory-types.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import {
  HARDWARE_CPU_ARCH_LABEL,
  HARDWARE_CPU_COUNT_LABEL,
  HARDWARE_DISK_GIB_LABEL,
  HARDWARE_DISK_TYPE_LABEL,
  HARDWARE_LABELS,
  HARDWARE_NIC_COUNT_LABEL,
  HARDWARE_RAM_GIB_LABEL,
} from '../../../operator/api/index.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { releaseNodesNamed } from '../../support/release-systems.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { getHost, inState, waitForHost } from './hosts.ts';

// HARDWARE_LABELS=true on the real operator binary: a Redfish host on emulated system 4 is
// inspected by real Ironic and the agent simulator, and the labels must say what the
// simulator's inventory says; hand edits of them are put right, users' own labels are not.
const SYSTEM_INDEX = 4;
const GiB = 1024 ** 3;
const env = readStackEnv();
const kubectl = new Kubectl(env);
const minutes = (n: number) => n * 60_000;
const NAME = 'sized';
// Users' labels, one of them under our prefix: the operator must leave both alone.
const USER_LABELS = { team: 'storage', 'hardware.metal3.io/gpu': 'none' };

let namespace = '';
let operator: OperatorProcess | undefined;

/** What the simulator reports for the system, as IPA would (hack/agent-simulator/inventory.ts). */
function simulatorInventory(): Inventory {
  const config = loadSimulatorConfig(join(env.stateDir, 'agent-simulator.json'));
  const system = config.systems.find((candidate) => candidate.uuid === env.systems[SYSTEM_INDEX]!.uuid);
  if (!system) throw new Error(`the agent simulator does not play system ${SYSTEM_INDEX}`);
  return buildInventory(system);
}

/** The labels the inventory calls for, worked out here from IPA's data, not by the operator's code. */
function labelsFromInventory(inventory: Inventory, rootDiskName: string): Record<string, string> {
  const root = inventory.disks.find((disk) => disk.name === rootDiskName);
  if (!root) throw new Error(`the simulated server has no ${rootDiskName}`);
  return {
    [HARDWARE_CPU_COUNT_LABEL]: String(inventory.cpu.count),
    [HARDWARE_CPU_ARCH_LABEL]: inventory.cpu.architecture,
    [HARDWARE_RAM_GIB_LABEL]: String(Math.floor(inventory.memory.physical_mb / 1024)),
    [HARDWARE_DISK_GIB_LABEL]: String(Math.floor(root.size / GiB)),
    [HARDWARE_DISK_TYPE_LABEL]: root.rotational ? 'hdd' : root.name.startsWith('/dev/nvme') ? 'nvme' : 'ssd',
    [HARDWARE_NIC_COUNT_LABEL]: String(inventory.interfaces.length),
  };
}

async function labelsOf(name: string): Promise<Record<string, string>> {
  const host = JSON.parse(await kubectl.ok(['get', 'bmh', name, '-n', namespace, '-o', 'json'])) as { metadata: { labels?: Record<string, string> } };
  return host.metadata.labels ?? {};
}

/** Our keys only: what the operator is responsible for. */
function ours(labels: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).filter(([key]) => (HARDWARE_LABELS as readonly string[]).includes(key)));
}

async function waitForLabels(expected: Record<string, string>, what: string): Promise<Record<string, string>> {
  let last: Record<string, string> = {};
  try {
    return await waitFor(
      async () => {
        last = await labelsOf(NAME);
        return sameLabels(ours(last), expected) ? last : undefined;
      },
      { timeoutMs: minutes(1), intervalMs: 500, what },
    );
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; last labels: ${JSON.stringify(last)}`, { cause: error });
  }
}

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => a[key] === b[key]);
}

/** Host names a label selector picks, through kubectl and through the list API. */
async function selected(selector: string): Promise<{ kubectl: string[]; api: string[] }> {
  const viaKubectl = await kubectl.ok(['get', 'bmh', '-n', namespace, '-l', selector, '-o', 'jsonpath={.items[*].metadata.name}']);
  const list = JSON.parse(
    await kubectl.ok(['get', '--raw', `/apis/metal3.io/v1alpha1/namespaces/${namespace}/baremetalhosts?labelSelector=${encodeURIComponent(selector)}`]),
  ) as { items: { metadata: { name: string } }[] };
  return { kubectl: viaKubectl.split(/\s+/).filter(Boolean), api: list.items.map((item) => item.metadata.name) };
}

beforeAll(async () => {
  const system = env.systems[SYSTEM_INDEX];
  if (!system) throw new Error(`this test needs emulated system ${SYSTEM_INDEX}; the stack has ${env.systems.length} (start one with --systems 5 or more)`);
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-hwlabels');
  operator = startOperatorProcess({ env, namespace, label: 'hardware-labels', extraEnv: { HARDWARE_LABELS: 'true' } });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${NAME}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials },
      {
        apiVersion: 'metal3.io/v1alpha1',
        kind: 'BareMetalHost',
        metadata: { name: NAME, namespace, labels: USER_LABELS },
        spec: { online: true, bootMACAddress: system.macs[0], bmc: { address: system.redfishAddress, credentialsName: `${NAME}-bmc` } },
      },
    ],
  }));
}, minutes(2));

afterAll(async () => {
  if (namespace) {
    await kubectl.run(['delete', 'bmh', '--all', '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await kubectl.run(['get', 'bmh', '-n', namespace, '-o', 'name'])).stdout.trim() ? undefined : true),
      { timeoutMs: minutes(2), what: 'hosts to be deleted' }).catch(() => undefined);
  }
  await operator?.stop();
  if (namespace) {
    await releaseNodesNamed(env, `${namespace}~`);
    // Anything left would keep its finalizers forever without the operator.
    const left = await kubectl.run(['get', 'bmh,secret,hardwaredata', '-n', namespace, '-o', 'name']);
    for (const name of left.stdout.split('\n').filter(Boolean)) {
      await kubectl.run(['patch', name, '-n', namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    }
    await kubectl.run(['delete', 'bmh,secret,hardwaredata', '--all', '-n', namespace, '--wait=false']);
    await deleteNamespace(kubectl, namespace);
  }
  kubectl.dispose();
}, minutes(4));

describe('hardware labels (HARDWARE_LABELS=true)', () => {
  it('labels an inspected host with what the simulator’s inventory says, next to the user’s labels', async () => {
    const host = await waitForHost(kubectl, namespace, NAME, inState('available'), { timeoutMs: minutes(5), failOnError: true });
    const hardware = host.status?.hardware;
    // The default hardware profile's root device hint is /dev/sda: that disk is the one labelled.
    const expected = labelsFromInventory(simulatorInventory(), '/dev/sda');
    const labels = await waitForLabels(expected, 'the hardware labels after inspection');
    expect(labels).toMatchObject(USER_LABELS);
    // And the same from status.hardware, which the operator derived them from.
    expect(labels[HARDWARE_CPU_COUNT_LABEL]).toBe(String(hardware?.cpu?.count));
    expect(labels[HARDWARE_CPU_ARCH_LABEL]).toBe(hardware?.cpu?.arch);
    expect(labels[HARDWARE_RAM_GIB_LABEL]).toBe(String(Math.floor(hardware!.ramMebibytes! / 1024)));
    expect(labels[HARDWARE_NIC_COUNT_LABEL]).toBe(String(new Set(hardware?.nics?.map((nic) => nic.mac)).size));
  }, minutes(6));

  it('lets a label selector pick the host by size with > and <', async () => {
    const cpus = Number((await labelsOf(NAME))[HARDWARE_CPU_COUNT_LABEL]);
    const ram = Number((await labelsOf(NAME))[HARDWARE_RAM_GIB_LABEL]);
    expect(await selected(`${HARDWARE_CPU_COUNT_LABEL}>${cpus - 1},${HARDWARE_RAM_GIB_LABEL}>${ram - 1}`)).toEqual({ kubectl: [NAME], api: [NAME] });
    expect(await selected(`${HARDWARE_CPU_COUNT_LABEL}<${cpus + 1},${HARDWARE_DISK_TYPE_LABEL}=ssd`)).toEqual({ kubectl: [NAME], api: [NAME] });
    expect(await selected(`${HARDWARE_CPU_COUNT_LABEL}>${cpus}`)).toEqual({ kubectl: [], api: [] });
  });

  it('puts hand-edited and removed labels right, and leaves the user’s own alone', async () => {
    const expected = labelsFromInventory(simulatorInventory(), '/dev/sda');
    await kubectl.ok(['label', 'bmh', NAME, '-n', namespace, '--overwrite', `${HARDWARE_CPU_COUNT_LABEL}=1`, `${HARDWARE_DISK_TYPE_LABEL}=hdd`, `${HARDWARE_NIC_COUNT_LABEL}-`]);
    const labels = await waitForLabels(expected, 'the operator to restore its labels');
    expect(labels).toMatchObject(USER_LABELS);
  });

  it('follows the root disk when the root device hints change, and removes the disk labels when no disk matches', async () => {
    const inventory = simulatorInventory();
    await kubectl.ok(['patch', 'bmh', NAME, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { rootDeviceHints: { deviceName: '/dev/nvme0n1' } } })]);
    const nvme = await waitForLabels(labelsFromInventory(inventory, '/dev/nvme0n1'), 'disk labels of the NVMe root disk');
    expect(nvme[HARDWARE_DISK_TYPE_LABEL]).toBe('nvme');

    await kubectl.ok(['patch', 'bmh', NAME, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { rootDeviceHints: { deviceName: '/dev/vda' } } })]);
    const { [HARDWARE_DISK_GIB_LABEL]: _size, [HARDWARE_DISK_TYPE_LABEL]: _type, ...withoutDisk } = labelsFromInventory(inventory, '/dev/sda');
    const labels = await waitForLabels(withoutDisk, 'the disk labels to go');
    expect(labels).toMatchObject(USER_LABELS);
    expect((await getHost(kubectl, namespace, NAME))?.status?.hardware?.storage?.length).toBe(inventory.disks.length);
  });
});
