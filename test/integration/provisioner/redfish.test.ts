// The Ironic provisioner driving an emulated Redfish system (sushy-tools) whose ramdisk is the
// stack's agent simulator: real power changes, agent inspection, cleaning and image deployment.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connectIronic } from '../../../ironic-client/index.ts';
import type { IronicClient } from '../../../ironic-client/index.ts';
import { bmcAccessFor } from '../../../operator/bmc/index.ts';
import type { HostIdentity, RegisterOptions } from '../../../operator/provisioner/provisioner.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { createHarness, drive, testHost, removeTestNode } from './provisioner-harness.ts';
import type { Harness } from './provisioner-harness.ts';

const env = readStackEnv();
// Emulated servers 24 and 25 are this file's (see test/support/test-stack.ts).
const system = env.systems[24];
const image = env.images[0];

describe('Ironic provisioner with an emulated Redfish system', () => {
  let harness: Harness;
  let sideClient: IronicClient;
  const host: HostIdentity = testHost(`redfish-${Date.now().toString(36)}`);

  beforeAll(async () => {
    harness = await createHarness(env, { shortMs: 1000, longMs: 2000 });
    sideClient = await connectIronic({ endpoint: env.ironicUrl });
  });

  afterAll(async () => {
    await removeTestNode(sideClient, host);
    harness.close();
    sideClient.close();
  });

  it('registers, inspects, provisions, deprovisions and deletes a Redfish host', async () => {
    if (system === undefined || image === undefined || env.bmcCredentials === undefined) throw new Error('the stack has no Redfish system, image or BMC credentials');
    const access = bmcAccessFor({ address: system.redfishAddress });
    if (!access.ok) throw access.error;
    const registerOptions: RegisterOptions = {
      host,
      bmc: access.access,
      credentials: env.bmcCredentials,
      bootMacAddress: system.macs[0],
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

    const registered = await drive(harness, 'register', () => harness.provisioner.register(registerOptions), { timeoutMs: 120_000 });
    phases['register'] = registered;
    const withId = { ...host, nodeId: registered.value.nodeId };

    // The next reconcile's register reads the node and writes nothing: Ironic masks the
    // password, so only the other access keys are compared (after the node cache expired).
    await sleep(600);
    const before = await harness.requestCount();
    expect(await harness.provisioner.register({ ...registerOptions, host: withId })).toEqual({ kind: 'done', value: { nodeId: withId.nodeId } });
    expect((await harness.requestCount()) - before).toBe(1);

    const inspected = await drive(
      harness,
      'inspect',
      () => harness.provisioner.inspect({ host: withId, mode: 'agent', retryAfterFailure: false, refresh: false, bootMode: 'UEFI', architecture: 'x86_64', bmc: access.access }),
      { timeoutMs: 300_000 },
    );
    phases['inspect'] = inspected;
    expect(inspected.value.hardware.nics?.map((nic) => nic.mac)).toEqual(expect.arrayContaining(system.macs));

    phases['prepare'] = await drive(harness, 'prepare', () => harness.provisioner.prepare({ host: withId, retryAfterFailure: false, bmc: access.access }), { timeoutMs: 60_000 });

    const provisionOptions = {
      host: withId,
      image: { url: image.url, checksum: image.sha256, checksumType: 'sha256' as const, format: 'raw' as const },
      configDrive: { meta_data: { uuid: withId.uid, name: withId.name, 'local-hostname': withId.name }, user_data: '#cloud-config\n' },
      bootMode: 'UEFI' as const,
      retryAfterFailure: false,
    };
    phases['provision'] = await drive(harness, 'provision', () => harness.provisioner.provision(provisionOptions), { timeoutMs: 600_000 });
    expect(await sideClient.nodes.get(withId.nodeId)).toMatchObject({ provision_state: 'active', instance_uuid: withId.uid });

    phases['deprovision'] = await drive(harness, 'deprovision', () => harness.provisioner.deprovision({ host: withId, automatedCleaningMode: 'metadata', retryAfterFailure: false }), {
      timeoutMs: 600_000,
    });
    phases['power off'] = await drive(harness, 'power off', () => harness.provisioner.powerOff({ host: withId, mode: 'hard', force: false }), { timeoutMs: 60_000 });
    phases['delete'] = await drive(harness, 'delete', () => harness.provisioner.delete({ host: withId }), { timeoutMs: 60_000 });
    await expect(sideClient.nodes.get(withId.nodeId)).rejects.toMatchObject({ kind: 'not_found' });

    console.log(`Ironic requests per phase (redfish + agent simulator, poll 1 s/2 s):\n${Object.entries(phases)
      .map(([phase, { calls, requests, seconds }]) => `  ${phase.padEnd(12)} ${String(requests).padStart(3)} requests in ${calls} calls, ${seconds.toFixed(1)} s`)
      .join('\n')}`);
  }, 900_000);

  it("records a failed deployment with the image and Ironic's error, then deprovisions", async () => {
    const other = env.systems[25];
    if (other === undefined || image === undefined || env.bmcCredentials === undefined) throw new Error('the stack has no second Redfish system');
    const access = bmcAccessFor({ address: other.redfishAddress });
    if (!access.ok) throw access.error;
    const failing: HostIdentity = testHost(`redfish-fail-${Date.now().toString(36)}`);
    try {
      const registered = await drive(harness, 'register', () => harness.provisioner.register({
        host: failing,
        bmc: access.access,
        credentials: env.bmcCredentials!,
        bootMacAddress: other.macs[0],
        bootMode: 'UEFI',
        credentialsChanged: false,
        retryAfterFailure: false,
        automatedCleaningMode: 'disabled',
        disablePowerOff: false,
        knownMacAddresses: [],
        inspectionDisabled: true,
      }), { timeoutMs: 120_000 });
      const withId = { ...failing, nodeId: registered.value.nodeId };
      const badChecksum = '0'.repeat(64);
      const provisionOptions = {
        host: withId,
        image: { url: image.url, checksum: badChecksum, checksumType: 'sha256' as const, format: 'raw' as const },
        bootMode: 'UEFI' as const,
        retryAfterFailure: false,
      };
      await expect(drive(harness, 'provision', () => harness.provisioner.provision(provisionOptions), { timeoutMs: 300_000 })).rejects.toThrow(
        new RegExp(`provision failed: Image provisioning failed \\(url: ${image.url.replace(/[.]/g, '\\.')}, checksum: ${badChecksum}\\): .+`),
      );
      expect((await sideClient.nodes.get(withId.nodeId)).provision_state).toBe('deploy failed');

      await drive(harness, 'deprovision', () => harness.provisioner.deprovision({ host: withId, automatedCleaningMode: 'disabled', retryAfterFailure: false }), { timeoutMs: 300_000 });
      await drive(harness, 'delete', () => harness.provisioner.delete({ host: withId }), { timeoutMs: 60_000 });
    } finally {
      const name = `${failing.namespace}~${failing.name}`;
      await sideClient.nodes.setMaintenance(name, { reason: 'test cleanup' }).catch(() => undefined);
      await sideClient.nodes.delete(name).catch(() => undefined);
    }
  }, 600_000);
});
