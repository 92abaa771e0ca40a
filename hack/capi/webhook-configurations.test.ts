import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { renderWebhookConfigurations } from './webhook-configurations.ts';

// Two of Cluster API's webhooks, shaped as its core/config/webhook/manifests.yaml has them.
const MANIFESTS = `---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
- admissionReviewVersions: [v1]
  clientConfig:
    service: {name: webhook-service, namespace: system, path: /validate-cluster-x-k8s-io-v1beta2-machine}
  failurePolicy: Fail
  name: validation.machine.cluster.x-k8s.io
  rules:
  - apiGroups: [cluster.x-k8s.io]
    apiVersions: [v1beta2]
    operations: [CREATE, UPDATE]
    resources: [machines]
  sideEffects: None
- admissionReviewVersions: [v1]
  clientConfig:
    service: {name: webhook-service, namespace: system, path: /validate-runtime-cluster-x-k8s-io-v1beta2-extensionconfig}
  failurePolicy: Fail
  name: validation.extensionconfig.runtime.addons.cluster.x-k8s.io
  rules:
  - apiGroups: [runtime.cluster.x-k8s.io]
    apiVersions: [v1beta2]
    operations: [CREATE, UPDATE]
    resources: [extensionconfigs]
  sideEffects: None
`;

const dir = mkdtempSync(join(tmpdir(), 'capi-webhooks-'));
const manifestsPath = join(dir, 'manifests.yaml');
writeFileSync(manifestsPath, MANIFESTS);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('renderWebhookConfigurations', () => {
  const render = (scope: { namespace?: string; watchFilter?: string }) => renderWebhookConfigurations({
    manifestsPath, name: 'capi-test', baseUrl: 'https://127.0.0.1:9443', caPem: 'PEM', ...scope,
  })[0]!.webhooks;

  it('points every webhook at the manager by URL, with the CA', () => {
    expect(render({}).map((webhook) => webhook.clientConfig)).toEqual([
      { url: 'https://127.0.0.1:9443/validate-cluster-x-k8s-io-v1beta2-machine', caBundle: Buffer.from('PEM').toString('base64') },
      { url: 'https://127.0.0.1:9443/validate-runtime-cluster-x-k8s-io-v1beta2-extensionconfig', caBundle: Buffer.from('PEM').toString('base64') },
    ]);
  });

  it('a scoped manager sees its namespace\'s objects, and of the cluster-scoped ExtensionConfigs only those labelled for it', () => {
    const [machine, extensionConfig] = render({ namespace: 'ns-1', watchFilter: 'ns-1' });
    expect(machine).toMatchObject({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ns-1' } } });
    expect(machine).not.toHaveProperty('objectSelector');
    expect(extensionConfig).toMatchObject({ objectSelector: { matchLabels: { 'cluster.x-k8s.io/watch-filter': 'ns-1' } } });
    expect(render({})[1]).not.toHaveProperty('objectSelector');
  });
});
