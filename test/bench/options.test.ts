import { describe, expect, it } from '@jest/globals';
import { emulatedSystems } from '../../hack/stack/systems.ts';
import type { StackEnv } from '../../hack/stack/state.ts';
import { benchHosts, syntheticMac } from './bench-hosts.ts';
import { judge } from './floor/node-poller.ts';
import { inspectionBody } from './inspection-responder.ts';
import { parseBenchArgs, pollLabel } from './options.ts';
import { stackSystems } from './run-bench.ts';

describe('bench options', () => {
  it('defaults to Redfish, BMO\'s and a faster poll, and a provisioning limit that never throttles N hosts', () => {
    const options = parseBenchArgs(['--hosts', '100']);
    expect(options).toMatchObject({ hosts: 100, mode: 'redfish', provisioningLimit: 100, floorPollMs: 1000, floorInFlight: 4, phaseTimeoutMs: 1_800_000, keepStack: false, rounds: 1 });
    expect(options.polls).toEqual([{ shortMs: 3000, longMs: 10000 }, { shortMs: 1000, longMs: 2000 }]);
    expect(options.polls.map(pollLabel)).toEqual(['poll 3s/10s (BMO)', 'poll 1s/2s']);
    expect(parseBenchArgs(['--hosts', '5']).provisioningLimit).toBe(20);
  });

  it('reads every option', () => {
    const options = parseBenchArgs([
      '--hosts=3', '--mode', 'fixture', '--poll', '500ms/1s', '--concurrency', '8', '--provisioning-limit', '4',
      '--floor-poll', '250ms', '--floor-in-flight', '16', '--phase-timeout', '2m', '--out', '/tmp/x', '--state-dir', '/tmp/y', '--keep-stack', '--heap-snapshot', '--rounds', '3',
    ]);
    expect(options).toEqual({
      hosts: 3, mode: 'fixture', polls: [{ shortMs: 500, longMs: 1000 }], concurrency: 8, provisioningLimit: 4,
      floorPollMs: 250, floorInFlight: 16, phaseTimeoutMs: 120_000, outDir: '/tmp/x', stateDir: '/tmp/y', keepStack: true, heapSnapshot: true, rounds: 3,
    });
    expect(stackSystems(options)).toBe(1);
    expect(stackSystems({ mode: 'redfish', hosts: 25 })).toBe(25);
  });

  it('refuses what it cannot run', () => {
    expect(() => parseBenchArgs([])).toThrow('--hosts N is required');
    expect(() => parseBenchArgs(['--hosts', '0'])).toThrow('--hosts must be a positive integer');
    expect(() => parseBenchArgs(['--hosts', '2', '--mode', 'ipmi'])).toThrow('--mode must be one of');
    expect(() => parseBenchArgs(['--hosts', '2', '--poll', '3s'])).toThrow('SHORT/LONG');
    expect(() => parseBenchArgs(['--hosts', '2', '--bogus'])).toThrow();
    expect(() => parseBenchArgs(['--hosts', '2', '--rounds', '0'])).toThrow('--rounds must be a positive integer');
  });
});

describe('bench hosts', () => {
  const env = {
    systems: emulatedSystems(2).map((system) => ({ ...system, redfishAddress: `redfish+http://127.0.0.1:8000/redfish/v1/Systems/${system.uuid}` })),
  } as unknown as StackEnv;

  it('are the emulated systems with Redfish, for the floor and the operator alike', () => {
    const floor = benchHosts({ mode: 'redfish', count: 2, env, role: 'floor' });
    expect(benchHosts({ mode: 'redfish', count: 2, env, role: 'operator' })).toEqual(floor);
    expect(floor[1]).toEqual({
      index: 1, name: 'host-2', bootMac: env.systems[1]?.macs[0], bmcAddress: env.systems[1]?.redfishAddress,
      redfishSystemId: `/redfish/v1/Systems/${env.systems[1]?.uuid}`,
    });
    expect(() => benchHosts({ mode: 'redfish', count: 3, env, role: 'floor' })).toThrow('emulates 2 systems');
  });

  it('get their own MACs and test-only addresses otherwise', () => {
    expect(syntheticMac(2, 300)).toBe('02:be:02:01:2c:01');
    const [floor] = benchHosts({ mode: 'fake-hardware', count: 1, env, role: 'floor' });
    const [operator] = benchHosts({ mode: 'fake-hardware', count: 1, env, role: 'operator' });
    expect(floor?.bootMac).not.toBe(operator?.bootMac);
    expect(operator?.bmcAddress).toBe('fake-hardware://bench-host-1');
    expect(benchHosts({ mode: 'fixture', count: 1, env, role: 'operator' })[0]?.bmcAddress).toMatch(/^redfish\+http:\/\/127\.0\.0\.1:9\//);
  });
});

describe('the floor and the inspection responder', () => {
  const node = (provision_state: string, target: string | null = null, last_error: string | null = null) =>
    ({ uuid: 'n1', provision_state, target_provision_state: target, last_error, power_state: 'power off' });

  it('waits until a node rests in the state, and fails on a failed state', () => {
    expect(judge(node('manageable'), 'manageable')).toBe('done');
    expect(judge(node('manageable', 'inspect'), 'manageable')).toBe('wait');
    expect(judge(node('inspect wait', 'manageable'), 'manageable')).toBe('wait');
    expect(judge(node('enroll', 'manageable'), 'manageable')).toBe('wait');
    expect(String(judge(node('enroll', null, 'bad credentials'), 'manageable'))).toContain('bad credentials');
    expect(String(judge(node('deploy failed', null, 'checksum'), 'active'))).toContain('deploy failed');
  });

  it('answers an inspection with the simulator\'s inventory for the node\'s boot NIC', () => {
    const body = inspectionBody({ ironicUrl: 'http://127.0.0.1:6385', nodeUuid: '5eb0a3c0-7a1d-4c55-9b1e-000000000001', name: 'n', mac: '02:BE:02:00:01:01' });
    const inventory = body['inventory'] as { interfaces: Array<{ mac_address: string }>; disks: unknown[] };
    expect(inventory.interfaces.map((nic) => nic.mac_address)).toContain('02:be:02:00:01:01');
    expect(inventory.disks.length).toBeGreaterThan(0);
  });
});
