// The Ironic provisioner against the stack's real Ironic with fake-hardware nodes: every verb
// of a host's life, each driven as a controller would until done, counting Ironic requests.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connectIronic } from '../../../ironic-client/index.ts';
import type { IronicClient } from '../../../ironic-client/index.ts';
import type { HostIdentity, RegisterOptions } from '../../../operator/provisioner/provisioner.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { createHarness, drive, fakeHardwareBmc, testHost, removeTestNode } from './provisioner-harness.ts';
import type { Harness } from './provisioner-harness.ts';

const env = readStackEnv();
const runId = randomBytes(3).toString('hex');
const mac = (index: number) => `52:54:0f:${runId.slice(0, 2)}:${runId.slice(2, 4)}:${index.toString(16).padStart(2, '0')}`;

function inventoryFor(macs: string[]) {
  return {
    inventory: {
      interfaces: macs.map((address, index) => ({ name: `eth${index}`, mac_address: address, ipv4_address: `192.0.2.${10 + index}`, has_carrier: true, speed_mbps: 10000 })),
      cpu: { architecture: 'x86_64', count: 4, model_name: 'Simulated CPU', frequency: '2400', flags: ['vmx'] },
      memory: { physical_mb: 8192, total: 8589934592 },
      disks: [{ name: '/dev/sda', size: 53687091200, rotational: false, model: 'Virtual disk', serial: 'disk-0', vendor: 'QEMU', by_path: '/dev/disk/by-path/pci-0000:00:04.0' }],
      system_vendor: { manufacturer: 'metal3-ts', product_name: 'fake', serial_number: runId },
      boot: { current_boot_mode: 'uefi', pxe_interface: macs[0] },
      bmc_address: '0.0.0.0',
      hostname: `fake-${runId}`,
    },
  };
}

describe('Ironic provisioner with fake-hardware', () => {
  let harness: Harness;
  /** For the test's own look-ups and agent stand-in, so they do not count as provisioner requests. */
  let sideClient: IronicClient;
  const host: HostIdentity = testHost(`fake-${runId}`);

  beforeAll(async () => {
    harness = await createHarness(env, { shortMs: 500, longMs: 1000 });
    sideClient = await connectIronic({ endpoint: env.ironicUrl });
  });

  afterAll(async () => {
    await removeTestNode(sideClient, host);
    harness.close();
    sideClient.close();
  });

  it('takes a host from registration to deletion', async () => {
    const registerOptions: RegisterOptions = {
      host,
      bmc: fakeHardwareBmc(),
      credentials: { username: 'unused', password: 'unused' },
      bootMacAddress: mac(1),
      bootMode: 'UEFI',
      architecture: 'x86_64',
      credentialsChanged: false,
      retryAfterFailure: false,
      automatedCleaningMode: 'metadata',
      disablePowerOff: false,
      knownMacAddresses: [],
      inspectionDisabled: false,
    };
    const phases: Record<string, { calls: number; requests: number; seconds: number }> = {};

    const registered = await drive(harness, 'register', () => harness.provisioner.register(registerOptions), { timeoutMs: 60_000 });
    phases['register'] = registered;
    const withId = { ...host, nodeId: registered.value.nodeId };
    const node = await sideClient.nodes.get(withId.nodeId);
    expect(node).toMatchObject({ name: `provisioner-it~fake-${runId}`, provision_state: 'manageable', automated_clean: true });
    expect(node.properties).toMatchObject({ cpu_arch: 'x86_64', capabilities: 'boot_mode:uefi' });
    expect(node.driver_info).toMatchObject({ deploy_kernel: `${env.artifactsUrl}/ipa.kernel` });

    // Steady state: the next reconcile's register reads the node and changes nothing (the
    // pause outlasts the provisioner's node cache, so the read really goes to Ironic).
    await sleep(300);
    const before = await harness.requestCount();
    expect(await harness.provisioner.register({ ...registerOptions, host: withId })).toEqual({ kind: 'done', value: { nodeId: withId.nodeId } });
    phases['register (steady)'] = { calls: 1, requests: (await harness.requestCount()) - before, seconds: 0 };
    expect(phases['register (steady)']?.requests).toBe(1);

    // Also a new operator instance with no recorded node id finds the node: no duplicate.
    const fresh = await createHarness(env, { shortMs: 500, longMs: 1000 });
    try {
      expect(await fresh.provisioner.register(registerOptions)).toEqual({ kind: 'done', value: { nodeId: withId.nodeId } });
    } finally {
      fresh.close();
    }

    // fake-hardware cannot boot an agent, so deploy with the fake deploy interface.
    await sideClient.nodes.update(withId.nodeId, [{ op: 'add', path: '/deploy_interface', value: 'fake' }]);

    let inventoryPosted = false;
    const inspected = await drive(harness, 'inspect', () => harness.provisioner.inspect({ host: withId, mode: 'agent', retryAfterFailure: false, refresh: false, bootMode: 'UEFI', architecture: 'x86_64' }), {
      timeoutMs: 60_000,
      onBusy: async () => {
        if (inventoryPosted) return;
        const states = await sideClient.nodes.getStates(withId.nodeId);
        if (states.provision_state !== 'inspect wait') return;
        await sideClient.agent.continueInspection(inventoryFor([mac(1), mac(2)]), { nodeUuid: withId.nodeId });
        inventoryPosted = true;
      },
    });
    phases['inspect'] = inspected;
    expect(inspected.value.hardware).toMatchObject({ cpu: { arch: 'x86_64', count: 4 }, ramMebibytes: 8192, systemVendor: { manufacturer: 'metal3-ts' } });
    expect(inspected.value.hardware.nics?.map((nic) => nic.mac)).toEqual(expect.arrayContaining([mac(1), mac(2)]));

    const prepared = await drive(harness, 'prepare', () => harness.provisioner.prepare({ host: withId, retryAfterFailure: false }), { timeoutMs: 10_000 });
    phases['prepare'] = prepared;

    const image = env.images[0];
    if (image === undefined) throw new Error('the stack serves no image');
    const provisionOptions = {
      host: withId,
      image: { url: image.url, checksum: image.sha256, checksumType: 'sha256' as const, format: 'raw' as const },
      configDrive: { meta_data: { uuid: withId.uid, name: withId.name, 'local-hostname': withId.name }, user_data: '#cloud-config\n' },
      bootMode: 'UEFI' as const,
      retryAfterFailure: false,
    };
    phases['provision'] = await drive(harness, 'provision', () => harness.provisioner.provision(provisionOptions), { timeoutMs: 120_000 });
    const active = await sideClient.nodes.get(withId.nodeId);
    expect(active).toMatchObject({ provision_state: 'active', instance_uuid: withId.uid });
    expect(active.instance_info).toMatchObject({ image_source: image.url, image_os_hash_algo: 'sha256', image_os_hash_value: image.sha256 });

    phases['power off'] = await drive(harness, 'power off', () => harness.provisioner.powerOff({ host: withId, mode: 'soft', force: false }), { timeoutMs: 30_000 });
    expect(await harness.provisioner.hardwareState({ host: withId })).toEqual({ poweredOn: false });
    phases['power on'] = await drive(harness, 'power on', () => harness.provisioner.powerOn({ host: withId, mode: 'soft', force: false }), { timeoutMs: 30_000 });

    phases['deprovision'] = await drive(harness, 'deprovision', () => harness.provisioner.deprovision({ host: withId, automatedCleaningMode: 'metadata', retryAfterFailure: false }), {
      timeoutMs: 120_000,
    });
    expect((await sideClient.nodes.get(withId.nodeId)).provision_state).toBe('available');

    phases['delete'] = await drive(harness, 'delete', () => harness.provisioner.delete({ host: withId }), { timeoutMs: 30_000 });
    await expect(sideClient.nodes.get(withId.nodeId)).rejects.toMatchObject({ kind: 'not_found' });

    console.log(`Ironic requests per phase (fake-hardware, poll 0.5 s/1 s):\n${Object.entries(phases)
      .map(([phase, { calls, requests, seconds }]) => `  ${phase.padEnd(18)} ${String(requests).padStart(3)} requests in ${calls} calls, ${seconds.toFixed(1)} s`)
      .join('\n')}`);
  });
});
