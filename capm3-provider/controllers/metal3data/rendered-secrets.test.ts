import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { renderedSecretText } from './rendered-secrets.ts';

/** As BMO reads the Secret: YAML 1.1, where an unquoted yes is true and 1_000 a number. */
const readAsYaml11 = (text: string): unknown => parse(text, { version: '1.1' });

describe('renderedSecretText', () => {
  it('keeps strings strings when read as BMO reads them (YAML 1.1): yes, on, n, 1_000, 1:20 are quoted', () => {
    const metaData = { role: 'yes', enabled: 'on', answer: 'n', count: '1_000', sexagesimal: '1:20', plain: 'worker-0', mac: '52:54:00:12:34:56' };
    const text = renderedSecretText(metaData);
    expect(text).toContain('role: "yes"');
    expect(readAsYaml11(text)).toEqual(metaData);
  });

  it('writes numbers, booleans and nesting as themselves (network data)', () => {
    const networkData = { links: [{ id: 'eth0', mtu: 1500, ethernet_mac_address: '00:11:22:33:44:55' }], services: [{ type: 'dns', address: '8.8.8.8' }], flag: true };
    expect(readAsYaml11(renderedSecretText(networkData))).toEqual(networkData);
  });
});
