import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { prepareOperatorWebhook, type OperatorWebhook } from '../../../hack/stack/operator-webhook.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';

const DENIED = 'admission webhook "dataimage.metal3.io" denied the request: ';

/**
 * BMO's DataImage webhook served by the real operator process (fixture provisioner) and called by
 * the real API server through kubectl. The DataImages go in a namespace the operator does not
 * watch, so they are only admitted, never acted on.
 */
describe('DataImage validating webhook', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let images = '';
  let watched = '';
  let webhook: OperatorWebhook | undefined;
  let operator: OperatorProcess | undefined;

  const dataImage = (name: string, url: string) => ({ apiVersion: 'metal3.io/v1alpha1', kind: 'DataImage', metadata: { name, namespace: images }, spec: { url } });
  const apply = (name: string, url: string) => kubectl.run(['apply', '-f', '-'], JSON.stringify(dataImage(name, url)));

  beforeAll(async () => {
    await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
    await kubectl.ok(['wait', '--for=condition=Established', '--timeout=60s', 'crd/baremetalhosts.metal3.io', 'crd/dataimages.metal3.io']);
    [images, watched] = await Promise.all([createUniqueNamespace(kubectl, 'webhook-dataimages'), createUniqueNamespace(kubectl, 'webhook-di-operator')]);
    webhook = await prepareOperatorWebhook({ target: env, dir: join(env.stateDir, 'webhooks', images), name: `di-${images}`, namespace: images });
    operator = startOperatorProcess({ env, namespace: watched, label: `webhook-${images}`, extraEnv: { PROVISIONER: 'fixture', ...webhook.operatorEnv } });
    await webhook.register(operator.process);
  }, 120_000);

  afterAll(async () => {
    await webhook?.unregister();
    await operator?.stop();
    await Promise.all([images, watched].filter(Boolean).map((namespace) => deleteNamespace(kubectl, namespace)));
    kubectl.dispose();
  });

  it('accepts the URL schemes BMO accepts', async () => {
    const results = await Promise.all([
      apply('http-image', 'http://127.0.0.1/data.iso'),
      apply('https-image', 'https://images.example/data.iso'),
      apply('ftp-image', 'ftp://127.0.0.1/data.iso'),
    ]);
    expect(results.map((result) => result.stderr)).toEqual(['', '', '']);
    const stored = await kubectl.json<{ items: { metadata: { name: string } }[] }>(['get', 'dataimage', '-n', images]);
    expect(stored.items.map((item) => item.metadata.name).sort()).toEqual(['ftp-image', 'http-image', 'https-image']);
  });

  it('refuses a bad URL on create and on update with BMO\'s message, and stores none of it', async () => {
    const cases = [
      { name: 'file-image', url: 'file:///data.iso', message: 'URL "file:///data.iso" is invalid: invalid scheme in URL, "file" not allowed' },
      { name: 'relative-image', url: 'data.iso', message: 'URL "data.iso" is invalid: parse "data.iso": invalid URI for request' },
      { name: 'empty-image', url: '', message: 'URL "" is invalid: parse "": empty url' },
      { name: 'http-image', url: 'nfs://127.0.0.1/data.iso', message: 'URL "nfs://127.0.0.1/data.iso" is invalid: invalid scheme in URL, "nfs" not allowed' },
    ];
    for (const { name, url, message } of cases) {
      const result = await apply(name, url);
      expect({ name, code: result.code, error: result.stderr.slice(result.stderr.indexOf('admission webhook')).trim() }).toEqual({ name, code: 1, error: `${DENIED}${message}` });
    }
    const stored = await kubectl.json<{ items: { metadata: { name: string }; spec: { url: string } }[] }>(['get', 'dataimage', '-n', images]);
    expect(stored.items.map((item) => `${item.metadata.name} ${item.spec.url}`).sort())
      .toEqual(['ftp-image ftp://127.0.0.1/data.iso', 'http-image http://127.0.0.1/data.iso', 'https-image https://images.example/data.iso']);
  });
});
