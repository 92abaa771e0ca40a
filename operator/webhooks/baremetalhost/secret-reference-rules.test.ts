import { describe, expect, it } from '@jest/globals';
import { testHost } from './test-host.ts';
import { validateHost } from './validate-host.ts';

describe('Secret reference rules', () => {
  it('accepts Secrets of the host namespace, named or implied', () => {
    const host = testHost({ spec: { userData: { name: 'u', namespace: 'hosts' }, networkData: { name: 'n' } } });
    expect(validateHost(host, { allowFakeHardware: false })).toEqual([]);
  });

  it('refuses userData, networkData and metaData of another namespace as Forbidden', () => {
    const host = testHost({ spec: { userData: { name: 'u', namespace: 'other' }, metaData: { name: 'm', namespace: 'other' } } });
    expect(validateHost(host, { allowFakeHardware: false })).toEqual([
      { field: 'spec.userData.namespace', message: 'baremetalhosts.metal3.io "host-0" is forbidden: userData: cross-namespace Secret references are not allowed' },
      { field: 'spec.metaData.namespace', message: 'baremetalhosts.metal3.io "host-0" is forbidden: metaData: cross-namespace Secret references are not allowed' },
    ]);
  });
});
