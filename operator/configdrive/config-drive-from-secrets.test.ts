import { describe, it, expect } from '@jest/globals';
import { configDriveFromSecrets } from './config-drive-from-secrets.ts';
import type { HostConfigHost } from './host-config-refs.ts';
import { hostConfigSecretRef, preprovisioningNetworkDataRef } from './host-config-refs.ts';
import type { SecretData } from './read-host-config-value.ts';
import { readHostConfigValue } from './read-host-config-value.ts';

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const secret = (data: Record<string, string>): SecretData => ({ data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])) });
const host = (spec: HostConfigHost['spec']): HostConfigHost & { uid: string } => ({ uid: 'uid-1', namespace: 'ns', name: 'h', spec });
const defaults = { uuid: 'uid-1', 'metal3-namespace': 'ns', 'metal3-name': 'h', 'local-hostname': 'h', local_hostname: 'h', name: 'h' };

describe('hostConfigSecretRef', () => {
  it('defaults the namespace and marks network data as optional', () => {
    const bmh = host({ userData: { name: 'ud' }, networkData: { name: 'nd', namespace: 'ns' } });
    expect(hostConfigSecretRef(bmh, 'userData')).toEqual({ ok: true, value: { kind: 'userData', namespace: 'ns', name: 'ud', missingKey: 'error' } });
    expect(hostConfigSecretRef(bmh, 'networkData')).toEqual({ ok: true, value: { kind: 'networkData', namespace: 'ns', name: 'nd', missingKey: 'empty' } });
    expect(hostConfigSecretRef(bmh, 'metaData')).toEqual({ ok: true, value: undefined });
  });

  it('falls back to the preprovisioning network data for the deployed OS', () => {
    const bmh = host({ preprovisioningNetworkDataName: 'ppnd' });
    expect(hostConfigSecretRef(bmh, 'networkData')).toEqual({ ok: true, value: { kind: 'networkData', namespace: 'ns', name: 'ppnd', missingKey: 'empty' } });
    expect(preprovisioningNetworkDataRef(bmh)).toEqual({ kind: 'networkData', namespace: 'ns', name: 'ppnd', missingKey: 'empty' });
    expect(preprovisioningNetworkDataRef(host({}))).toBeUndefined();
  });

  it('refuses another namespace', () => {
    const result = hostConfigSecretRef(host({ metaData: { name: 'md', namespace: 'other' } }), 'metaData');
    if (result.ok) throw new Error('expected a failure');
    expect(result.error.kind).toBe('cross-namespace');
    expect(result.error.message).toBe('could not retrieve metadata: metaData secret must be in same namespace as host ns/h');
  });
});

describe('readHostConfigValue', () => {
  const ref = { kind: 'userData' as const, namespace: 'ns', name: 'ud', missingKey: 'error' as const };

  it('prefers the kind key, then "value", without trimming', () => {
    expect(readHostConfigValue(secret({ userData: 'a\n', value: 'b' }), ref)).toEqual({ ok: true, value: 'a\n' });
    expect(readHostConfigValue(secret({ value: ' b ' }), ref)).toEqual({ ok: true, value: ' b ' });
  });

  it('reports a missing key with BMO wording', () => {
    const result = readHostConfigValue(secret({ other: 'x' }), ref);
    if (result.ok) throw new Error('expected a failure');
    expect(result.error.message).toBe('could not retrieve user data: Secret ud does not contain key userData');
  });

  it('treats missing network data as empty', () => {
    expect(readHostConfigValue(secret({}), { ...ref, kind: 'networkData', missingKey: 'empty' })).toEqual({ ok: true, value: '' });
  });
});

describe('configDriveFromSecrets', () => {
  it('combines all three Secrets', () => {
    const result = configDriveFromSecrets({
      host: host({ userData: { name: 'ud' }, networkData: { name: 'nd' }, metaData: { name: 'md' } }),
      liveIso: false,
      secrets: {
        userData: secret({ value: '#ignition' }),
        networkData: secret({ networkData: 'links: []' }),
        metaData: secret({ metaData: 'role: worker' }),
      },
    });
    expect(result).toEqual({ ok: true, value: { user_data: '#ignition', network_data: { links: [] }, meta_data: { ...defaults, role: 'worker' } } });
  });

  it('fails in BMO order: user data first', () => {
    const result = configDriveFromSecrets({
      host: host({ userData: { name: 'ud' }, networkData: { name: 'nd', namespace: 'elsewhere' } }),
      liveIso: false,
      secrets: { userData: secret({}) },
    });
    if (result.ok) throw new Error('expected a failure');
    expect(result.error.message).toBe('could not retrieve user data: Secret ud does not contain key userData');
  });

  it('reports a referenced Secret that was not supplied as not found', () => {
    const result = configDriveFromSecrets({ host: host({ metaData: { name: 'md' } }), liveIso: false, secrets: {} });
    if (result.ok) throw new Error('expected a failure');
    expect(result.error.kind).toBe('secret-not-found');
    expect(result.error.message).toBe('could not retrieve metadata: secrets "md" not found');
  });

  it('ignores Secrets for a live ISO', () => {
    expect(configDriveFromSecrets({ host: host({ userData: { name: 'ud' } }), liveIso: true, secrets: {} })).toEqual({ ok: true, value: undefined });
  });
});
