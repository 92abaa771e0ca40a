import { describe, expect, it } from '@jest/globals';
import type { HostFirmwareComponents } from '../../api/hostfirmwarecomponents.ts';
import { computeComponentsStatus, pendingFirmwareUpdates } from './components-status.ts';

const NOW = new Date('2026-11-25T06:00:00Z');
const components = [{ component: 'bios', initialVersion: '1.0.0', currentVersion: '1.0.0' }];
const bios = { component: 'bios', url: 'http://127.0.0.1/bios.bin' };

function hfc(updates: HostFirmwareComponents['spec']['updates'], generation = 1, status?: HostFirmwareComponents['status']): HostFirmwareComponents {
  return { metadata: { name: 'host', namespace: 'ns', generation }, spec: { updates }, ...(status ? { status } : {}) };
}
const condition = (status: { conditions?: { type: string; status: string }[] | undefined }, type: string) => status.conditions?.find((c) => c.type === type)?.status;

describe('computeComponentsStatus', () => {
  it('records the components; no updates means valid and unchanged, and never writes status.updates', () => {
    const result = computeComponentsStatus(hfc([]), components, NOW);
    expect(result).toMatchObject({ changed: true, problem: undefined });
    expect(result.status).toEqual(expect.objectContaining({ components, lastUpdated: '2026-11-25T06:00:00Z' }));
    expect(result.status).not.toHaveProperty('updates');
    expect([condition(result.status, 'ChangeDetected'), condition(result.status, 'Valid')]).toEqual(['False', 'True']);
    expect(computeComponentsStatus(hfc([], 1, result.status), components, NOW).changed).toBe(false);
  });

  it('refuses components other than bios, bmc and nic:* with BMO\'s message, once', () => {
    const result = computeComponentsStatus(hfc([{ component: 'disk', url: 'x' }]), components, NOW);
    expect(result.problem).toBe("component disk is invalid, only 'bmc', 'bios', or names starting with 'nic:' are allowed as update names");
    expect(condition(result.status, 'Valid')).toBe('False');
    expect(computeComponentsStatus(hfc([{ component: 'disk', url: 'x' }], 1, result.status), components, NOW).problem).toBeUndefined();
    expect(computeComponentsStatus(hfc([{ component: 'nic:eth0', url: 'x' }]), components, NOW).problem).toBeUndefined();
  });
});

describe('pendingFirmwareUpdates', () => {
  it('applies valid updates judged for this generation, until they are recorded as started', () => {
    const judged = computeComponentsStatus(hfc([bios], 2), components, NOW).status;
    expect(pendingFirmwareUpdates(hfc([bios], 2, judged))).toEqual([bios]);
    expect(pendingFirmwareUpdates(hfc([bios], 3, judged))).toEqual([]);
    expect(pendingFirmwareUpdates(hfc([bios], 2, { ...judged, updates: [bios] }))).toEqual([]);
    const invalid = computeComponentsStatus(hfc([{ component: 'disk', url: 'x' }]), components, NOW).status;
    expect(pendingFirmwareUpdates(hfc([{ component: 'disk', url: 'x' }], 1, invalid))).toEqual([]);
    expect(pendingFirmwareUpdates(undefined)).toEqual([]);
  });
});
