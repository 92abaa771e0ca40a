import { describe, it, expect } from '@jest/globals';
import type { HostConfigText } from './config-drive.ts';
import { buildConfigDrive } from './config-drive.ts';
import { HostConfigError } from './host-config-error.ts';
import type { HostConfigKind } from './host-config-refs.ts';

const host = { uid: '7c5b1a2e-0d7e-4c39-9f0a-3b1f2f9e6a10', namespace: 'myns', name: 'myhost' };
const defaults = {
  uuid: host.uid,
  'metal3-namespace': 'myns',
  'metal3-name': 'myhost',
  'local-hostname': 'myhost',
  local_hostname: 'myhost',
  name: 'myhost',
};
const from = (kind: HostConfigKind, text: string): HostConfigText => ({
  text,
  source: { kind, namespace: 'myns', name: `${kind.toLowerCase()}-secret`, missingKey: 'error' },
});

describe('buildConfigDrive', () => {
  it.each([
    ['default', {}, { meta_data: defaults }],
    [
      'everything',
      { userData: 'testUserData', networkData: from('networkData', 'test: NetworkData'), metaData: from('metaData', 'test: Meta') },
      { meta_data: { ...defaults, test: 'Meta' }, network_data: { test: 'NetworkData' }, user_data: 'testUserData' },
    ],
    ['only network data', { networkData: from('networkData', 'test: NetworkData') }, { meta_data: defaults, network_data: { test: 'NetworkData' } }],
    ['only user data', { userData: '#cloud-config\nusers: []\n' }, { meta_data: defaults, user_data: '#cloud-config\nusers: []\n' }],
    ['metaData overrides defaults key by key', { metaData: from('metaData', 'name: other\nextra: {a: 1}') }, {
      meta_data: { ...defaults, name: 'other', extra: { a: 1 } },
    }],
    ['JSON network data', { networkData: from('networkData', '{"links": [], "networks": [], "services": []}') }, {
      meta_data: defaults,
      network_data: { links: [], networks: [], services: [] },
    }],
    ['empty network map is omitted', { networkData: from('networkData', '{}') }, { meta_data: defaults }],
    ['null network data is omitted', { networkData: from('networkData', 'null') }, { meta_data: defaults }],
    // Go unmarshals a null document into the map, leaving it nil.
    ['null metaData drops meta_data', { metaData: from('metaData', '~') }, {}],
    ['empty strings are nothing', { userData: '', networkData: from('networkData', ''), metaData: from('metaData', '') }, { meta_data: defaults }],
  ])('%s', (_name, parts, expected) => {
    expect(buildConfigDrive({ host, liveIso: false, ...parts })).toEqual({ ok: true, value: expected });
  });

  it('gives no config drive for a live ISO', () => {
    expect(buildConfigDrive({ host, liveIso: true, userData: 'x' })).toEqual({ ok: true, value: undefined });
  });

  it.each([
    [
      'network data that is a list',
      { networkData: from('networkData', '- eth0: {dhcp: true}') },
      'failed to unmarshal network_data.json from secret myns/networkdata-secret (key networkData): expected a map, found a list',
    ],
    [
      'network data that is plain text',
      { networkData: from('networkData', 'token-abc123') },
      'failed to unmarshal network_data.json from secret myns/networkdata-secret (key networkData): expected a map, found a string',
    ],
    [
      'broken metadata',
      { metaData: from('metaData', 'key: [secret-value') },
      'failed to unmarshal metadata from secret myns/metadata-secret (key metaData): invalid YAML (BAD_INDENT) at line 1, column 19',
    ],
  ])('rejects %s', (_name, parts, message) => {
    const result = buildConfigDrive({ host, liveIso: false, ...parts });
    if (result.ok) throw new Error('expected a failure');
    expect(result.error).toBeInstanceOf(HostConfigError);
    expect(result.error.kind).toBe('not-a-map');
    expect(result.error.message).toBe(message);
    expect(result.error.message).not.toMatch(/token-abc123|secret-value/);
  });
});
