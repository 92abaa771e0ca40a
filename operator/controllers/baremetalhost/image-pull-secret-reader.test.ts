import { describe, expect, it } from '@jest/globals';
import { ENVIRONMENT_LABEL } from '../../api/labels.ts';
import { readImagePullSecret } from './image-pull-secret-reader.ts';
import type { SecretAccess, SecretObject } from '../../secrets/index.ts';
import { hostFor } from './testing/hosts.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const pullSecret: SecretObject = {
  metadata: { name: 'pull', namespace: 'test', resourceVersion: '1' },
  type: 'kubernetes.io/dockerconfigjson',
  data: { '.dockerconfigjson': b64(JSON.stringify({ auths: { '127.0.0.1:5000': { auth: b64('robot:pw') } } })) },
};

function secretsHolding(...stored: SecretObject[]): SecretAccess & { claimed: Array<{ name: string; finalizer: boolean }> } {
  const claimed: Array<{ name: string; finalizer: boolean }> = [];
  return {
    claimed,
    claim: async (name, options) => {
      const secret = stored.find((s) => s.metadata.name === name.name && s.metadata.namespace === name.namespace);
      if (!secret) return undefined;
      claimed.push({ name: secret.metadata.name ?? '', finalizer: options.finalizer });
      return { ...secret, metadata: { ...secret.metadata, labels: { [ENVIRONMENT_LABEL]: 'baremetal' } } };
    },
    release: async () => undefined,
  };
}

const ociHost = (image: Record<string, string>) => hostFor({ spec: { image: { url: 'oci://127.0.0.1:5000/os:1', ...image } } });

describe('readImagePullSecret', () => {
  it('reads username:password for the registry and labels the Secret without a finalizer', async () => {
    const secrets = secretsHolding(pullSecret);
    expect(await readImagePullSecret(ociHost({ ociAuthSecretName: 'pull' }), secrets)).toEqual({ ok: true, credentials: 'robot:pw' });
    expect(secrets.claimed).toEqual([{ name: 'pull', finalizer: false }]);
  });

  it('reads nothing for images that are not oci:// or name no Secret', async () => {
    const secrets = secretsHolding(pullSecret);
    expect(await readImagePullSecret(ociHost({}), secrets)).toEqual({ ok: true, credentials: undefined });
    const http = hostFor({ spec: { image: { url: 'http://127.0.0.1/os.raw', checksum: 'x', ociAuthSecretName: 'pull' } } });
    expect(await readImagePullSecret(http, secrets)).toEqual({ ok: true, credentials: undefined });
    expect(await readImagePullSecret(hostFor({}), secrets)).toEqual({ ok: true, credentials: undefined });
    expect(secrets.claimed).toEqual([]);
  });

  it('reports a missing Secret with BMO\'s message', async () => {
    expect(await readImagePullSecret(ociHost({ ociAuthSecretName: 'absent' }), secretsHolding(pullSecret))).toEqual({
      ok: false, message: 'auth secret "absent" not found in namespace "test"',
    });
  });

  it('passes on what is wrong with the Secret, with the event reason', async () => {
    const opaque = { ...pullSecret, type: 'Opaque' };
    expect(await readImagePullSecret(ociHost({ ociAuthSecretName: 'pull' }), secretsHolding(opaque))).toMatchObject({
      ok: false, reason: 'ImageAuthFormatUnsupported', message: expect.stringContaining('unsupported type "Opaque"'),
    });
  });
});
