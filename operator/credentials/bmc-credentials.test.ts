import { describe, it, expect } from '@jest/globals';
import type { CredentialsHost, SecretData } from './bmc-credentials.ts';
import { bmcSecretKey, validateBMCCredentials } from './bmc-credentials.ts';
import { CredentialsError } from './credentials-error.ts';

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const host = (bmc: CredentialsHost['bmc']): CredentialsHost => ({ namespace: 'metal3', bmc });
const goodHost = host({ address: 'redfish://bmc', credentialsName: 'bmc-secret' });
const secret = (data: Record<string, string>): SecretData => ({ data });

describe('validateBMCCredentials', () => {
  it('decodes and trims both values', () => {
    const result = validateBMCCredentials({
      host: goodHost,
      secret: secret({ username: b64('admin\n'), password: b64('\t pa ss \u00a0\r\n') }),
    });
    expect(result).toEqual({ ok: true, value: { username: 'admin', password: 'pa ss' } });
  });

  it('keeps a byte-order mark, as Go does', () => {
    const result = validateBMCCredentials({ host: goodHost, secret: secret({ username: b64('u'), password: b64('\ufeffp') }) });
    expect(result).toEqual({ ok: true, value: { username: 'u', password: '\ufeffp' } });
  });

  it.each<[string, CredentialsHost, SecretData | undefined, string, string, number | undefined]>([
    [
      'no secret reference',
      host({ address: 'redfish://bmc' }),
      secret({}),
      'empty-secret-reference',
      'No BMC CredentialsName defined The BMC secret reference is empty',
      undefined,
    ],
    [
      'missing secret',
      goodHost,
      undefined,
      'secret-not-found',
      "BMC CredentialsName secret doesn't exist The BMC secret metal3/bmc-secret does not exist",
      10_000,
    ],
    [
      'missing address (checked after the secret)',
      host({ credentialsName: 'bmc-secret' }),
      secret({ username: b64('u'), password: b64('p') }),
      'empty-address',
      "Empty BMC address Missing BMC connection detail 'Address'",
      undefined,
    ],
    [
      'missing username',
      goodHost,
      secret({ password: b64('p') }),
      'invalid-credentials',
      "Validation error with BMC credentials: Missing BMC connection detail 'username' in credentials",
      undefined,
    ],
    [
      'whitespace-only username',
      goodHost,
      secret({ username: b64(' \n'), password: b64('p') }),
      'invalid-credentials',
      "Validation error with BMC credentials: Missing BMC connection detail 'username' in credentials",
      undefined,
    ],
    [
      'missing password',
      goodHost,
      secret({ username: b64('u') }),
      'invalid-credentials',
      "Validation error with BMC credentials: Missing BMC connection details 'password' in credentials",
      undefined,
    ],
    [
      'secret without data',
      goodHost,
      {},
      'invalid-credentials',
      "Validation error with BMC credentials: Missing BMC connection detail 'username' in credentials",
      undefined,
    ],
  ])('%s', (_name, bmcHost, bmcSecret, kind, message, retryAfterMs) => {
    const result = validateBMCCredentials({ host: bmcHost, secret: bmcSecret });
    if (result.ok) throw new Error('expected a failure');
    expect(result.error).toBeInstanceOf(CredentialsError);
    expect(result.error.kind).toBe(kind);
    expect(result.error.message).toBe(message);
    expect(message.endsWith(result.error.detail)).toBe(true);
    expect(result.error.retryAfterMs).toBe(retryAfterMs);
  });

  it('never puts secret values into messages', () => {
    const result = validateBMCCredentials({ host: goodHost, secret: secret({ username: b64('root-user-value') }) });
    if (result.ok) throw new Error('expected a failure');
    expect(result.error.message).not.toContain('root-user-value');
    expect(JSON.stringify(result.error)).not.toContain('root-user-value');
  });
});

describe('bmcSecretKey', () => {
  it('uses the host namespace', () => {
    expect(bmcSecretKey(goodHost)).toEqual({ ok: true, value: { namespace: 'metal3', name: 'bmc-secret' } });
  });
});
