import { describe, expect, it } from '@jest/globals';
import { ramdiskNetworkData } from './ramdisk-network-data.ts';

const ref = { kind: 'networkData' as const, namespace: 'ns', name: 'net', missingKey: 'empty' as const };
const secretWith = (data: Record<string, string>) => ({ data: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')])) });

describe('ramdiskNetworkData', () => {
  it('reads YAML or JSON under networkData (or value) into a map', () => {
    expect(ramdiskNetworkData(secretWith({ networkData: 'links:\n- id: eth0\n  mtu: 1500\n' }), ref)).toEqual({ ok: true, value: { links: [{ id: 'eth0', mtu: 1500 }] } });
    expect(ramdiskNetworkData(secretWith({ value: '{"services":[]}' }), ref)).toEqual({ ok: true, value: { services: [] } });
  });

  it('is none for a Secret without the key or with an empty value', () => {
    expect(ramdiskNetworkData(secretWith({}), ref)).toEqual({ ok: true, value: undefined });
    expect(ramdiskNetworkData(secretWith({ networkData: '  \n' }), ref)).toEqual({ ok: true, value: undefined });
  });

  it('names the Secret and key when the value is not a map, without quoting it', () => {
    const result = ramdiskNetworkData(secretWith({ networkData: '- just\n- a list\n' }), ref);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.message).toMatch(/^invalid preprovisioningNetworkData: Secret ns\/net \(key networkData\) is not a YAML or JSON map/);
      expect(result.error.message).not.toContain('just');
    }
  });
});
