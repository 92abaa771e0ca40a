import { describe, expect, it } from '@jest/globals';
import { registryCredentials, registryHost } from './registry-credentials.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const IMAGE = 'oci://127.0.0.1:5000/metal3/os:1';
const PASSWORD = 'hunter2-very-secret';

function dockerConfigJson(auths: Record<string, unknown>, name = 'pull') {
  return { name, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64(JSON.stringify({ auths })) } };
}

describe('registryHost', () => {
  it('is the host and port of an oci:// URL, without user info', () => {
    expect(registryHost('oci://quay.io/org/os:1')).toBe('quay.io');
    expect(registryHost('OCI://127.0.0.1:5000/os@sha256:abc')).toBe('127.0.0.1:5000');
    expect(registryHost('oci://someone@registry.example.com/os')).toBe('registry.example.com');
    expect(registryHost('oci:///no-host')).toBeUndefined();
    expect(registryHost('http://127.0.0.1/os.raw')).toBeUndefined();
  });
});

describe('registryCredentials', () => {
  it('decodes the base64 auth of the registry entry of a dockerconfigjson Secret', () => {
    const secret = dockerConfigJson({ 'other.example.com': { auth: b64('no:pe') }, '127.0.0.1:5000': { auth: b64(`robot:${PASSWORD}`) } });
    expect(registryCredentials(secret, IMAGE)).toEqual({ ok: true, credentials: `robot:${PASSWORD}`, registry: '127.0.0.1:5000' });
  });

  it('takes username and password fields, and keeps colons inside the password', () => {
    const secret = dockerConfigJson({ '127.0.0.1:5000': { username: 'robot', password: 'a:b:c' } });
    expect(registryCredentials(secret, IMAGE)).toMatchObject({ ok: true, credentials: 'robot:a:b:c' });
  });

  it('passes an identity token as a password without user', () => {
    const secret = dockerConfigJson({ '127.0.0.1:5000': { identitytoken: 'tok' } });
    expect(registryCredentials(secret, IMAGE)).toMatchObject({ ok: true, credentials: ':tok' });
  });

  it('reads the legacy dockercfg layout (entries without "auths")', () => {
    const secret = { name: 'pull', type: 'kubernetes.io/dockercfg', data: { '.dockercfg': b64(JSON.stringify({ '127.0.0.1:5000': { auth: b64('robot:pw') } })) } };
    expect(registryCredentials(secret, IMAGE)).toMatchObject({ ok: true, credentials: 'robot:pw' });
  });

  it('finds Docker Hub under the key docker login writes, whatever name the image uses', () => {
    const secret = dockerConfigJson({ 'https://index.docker.io/v1/': { auth: b64('hub:pw') } });
    for (const host of ['docker.io', 'index.docker.io', 'registry-1.docker.io']) {
      expect(registryCredentials(secret, `oci://${host}/library/os:1`)).toMatchObject({ ok: true, credentials: 'hub:pw' });
    }
  });

  it('refuses a Secret of another type with BMO\'s message and event reason', () => {
    const secret = { name: 'pull', type: 'Opaque', data: { '.dockerconfigjson': b64('{}') } };
    expect(registryCredentials(secret, IMAGE)).toEqual({
      ok: false,
      reason: 'ImageAuthFormatUnsupported',
      message: 'secret "pull" has unsupported type "Opaque" (expected kubernetes.io/dockerconfigjson or kubernetes.io/dockercfg)',
    });
  });

  it('names the registry when the Secret has no entry for it (host and port must match exactly)', () => {
    const secret = dockerConfigJson({ '127.0.0.1': { auth: b64(`robot:${PASSWORD}`) }, 'https://127.0.0.1:5000': { auth: b64('x:y') } });
    expect(registryCredentials(secret, IMAGE)).toEqual({
      ok: false,
      reason: 'ImageAuthParseError',
      message: 'failed to extract credentials from secret "pull": registry 127.0.0.1:5000 not found in auth config',
    });
  });

  it('treats an entry without credentials as missing', () => {
    for (const entry of [{}, { auth: '' }, { auth: b64('nocolon') }, { username: 'robot' }, 'text']) {
      expect(registryCredentials(dockerConfigJson({ '127.0.0.1:5000': entry }), IMAGE)).toMatchObject({
        ok: false, message: expect.stringContaining('registry 127.0.0.1:5000 not found in auth config'),
      });
    }
  });

  it('says which key is missing from a Secret of the right type', () => {
    expect(registryCredentials({ name: 'pull', type: 'kubernetes.io/dockerconfigjson', data: {} }, IMAGE)).toMatchObject({
      ok: false, reason: 'ImageAuthParseError',
      message: 'failed to extract credentials from secret "pull": secret does not contain .dockerconfigjson or .dockercfg key',
    });
  });

  it('never repeats the Secret\'s content in an error, even when its JSON is broken', () => {
    const broken = { name: 'pull', type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64(`{"auths": {"127.0.0.1:5000": {"password": "${PASSWORD}"`) } };
    const result = registryCredentials(broken, IMAGE);
    expect(result).toEqual({ ok: false, reason: 'ImageAuthParseError', message: 'failed to extract credentials from secret "pull": failed to parse dockerconfigjson: not valid JSON' });
    const array = { name: 'pull', type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64(`{"auths": ["${PASSWORD}"]}`) } };
    expect(JSON.stringify(registryCredentials(array, IMAGE))).not.toContain(PASSWORD);
    const wrongRegistry = dockerConfigJson({ 'elsewhere:5000': { auth: b64(`robot:${PASSWORD}`) } });
    expect(JSON.stringify(registryCredentials(wrongRegistry, IMAGE))).not.toContain(PASSWORD);
  });

  it('cannot read a registry from a URL without host', () => {
    expect(registryCredentials(dockerConfigJson({}), 'oci:///os')).toMatchObject({
      ok: false, message: 'failed to extract credentials from secret "pull": failed to extract registry host from image URL oci:///os',
    });
  });
});
