import { afterAll, describe, expect, it } from '@jest/globals';
import { renderKustomization, type Manifest } from '../../../hack/stack/kustomize.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { ensureNamespace } from '../../support/namespaces.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { dryRunApply, isCertManagerObject } from './dry-run.ts';

interface Container {
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  livenessProbe?: { httpGet?: { path: string } };
  readinessProbe?: { httpGet?: { path: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; capabilities?: { drop?: string[] } };
}
interface PodSpec {
  serviceAccountName?: string;
  securityContext?: { runAsNonRoot?: boolean; seccompProfile?: { type: string } };
  containers: Container[];
}
const podSpecOf = (deployment: Manifest) => (deployment as unknown as { spec: { template: { spec: PodSpec } } }).spec.template.spec;

/**
 * A webhook install is wired up: its Service targets the Deployment's webhook port, the Deployment
 * mounts the certificate Secret where controller-runtime looks, and cert-manager's Certificate
 * (structure only: the test API server has no cert-manager CRDs) fills that Secret for the
 * Service's DNS name, from an Issuer in the namespace, with its CA injected into each configuration.
 */
function expectWebhookWiring(objects: Manifest[], options: { namespace: string; serviceName: string; secretName: string; configurations: Manifest[] }): void {
  const { namespace } = options;
  const service = objects.find((object) => object.kind === 'Service' && object.metadata.name === options.serviceName) as unknown as
    Manifest & { spec: { ports: { port: number; targetPort: string }[] } };
  expect(service.spec.ports).toEqual([expect.objectContaining({ port: 443, targetPort: 'webhook-server' })]);
  const deployment = objects.find((object) => object.kind === 'Deployment') as unknown as { spec: { template: { spec: {
    containers: { args: string[]; ports: { name: string; containerPort: number }[]; volumeMounts: { name: string; mountPath: string }[] }[];
    volumes: { name: string; secret?: { secretName: string } }[] } } } };
  const [container] = deployment.spec.template.spec.containers;
  expect(container?.args).toContain('--webhook-port=9443');
  expect(container?.ports).toContainEqual({ name: 'webhook-server', containerPort: 9443, protocol: 'TCP' });
  const certMount = container?.volumeMounts.find((mount) => mount.mountPath === '/tmp/k8s-webhook-server/serving-certs');
  const secretName = deployment.spec.template.spec.volumes.find((volume) => volume.name === certMount?.name)?.secret?.secretName;
  expect(secretName).toBe(options.secretName);
  type Certificate = Manifest & { spec: { secretName: string; dnsNames: string[]; issuerRef: { kind: string; name: string } } };
  const certificate = objects.find((object) => object.kind === 'Certificate') as Certificate;
  expect(certificate.spec.secretName).toBe(secretName);
  expect(certificate.spec.dnsNames).toContain(`${service.metadata.name}.${namespace}.svc`);
  for (const configuration of options.configurations) {
    expect((configuration.metadata.annotations as Record<string, string> | undefined)?.['cert-manager.io/inject-ca-from'])
      .toBe(`${certificate.metadata.namespace}/${certificate.metadata.name}`);
  }
  const issuer = objects.find((object) => object.kind === certificate.spec.issuerRef.kind && object.metadata.name === certificate.spec.issuerRef.name);
  expect(issuer?.metadata.namespace).toBe(namespace);
}

// The operator takes BMO's flag names, the provider CAPM3's.
const INSTALLS = [
// Metrics on BMO's, CAPM3's and the IPAM's HTTPS port (test/integration/deploy/secure-metrics.test.ts).
  { directory: 'deploy/operator/default', namespace: 'baremetal-operator-system', serviceAccount: 'baremetal-operator-controller-manager', leaderFlag: '--enable-leader-election', metricsPort: 8443 },
  { directory: 'deploy/operator/namespace-scoped', namespace: 'baremetal-operator-system', serviceAccount: 'baremetal-operator-controller-manager', leaderFlag: '--enable-leader-election', metricsPort: 8443 },
  { directory: 'deploy/capm3/default', namespace: 'capm3-system', serviceAccount: 'capm3-manager', leaderFlag: '--leader-elect', metricsPort: 8443 },
  { directory: 'deploy/ipam/default', namespace: 'metal3-ipam-system', serviceAccount: 'ipam-manager', leaderFlag: '--leader-elect', metricsPort: 8443 },
];

/** Each kustomization renders and every object it renders is accepted by the real API server. */
describe('kustomize installs in deploy/ on the real API server', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  afterAll(() => kubectl.dispose());

  it.each(INSTALLS)('$directory renders and passes kubectl apply --dry-run=server', async ({ directory, namespace }) => {
    const rendered = await renderKustomization({ kubectl: env.kubectl, directory });
    // A dry run creates nothing, so the namespace its objects go in has to exist already.
    await ensureNamespace(kubectl, namespace);
    const objects = rendered.filter((object) => !isCertManagerObject(object));
    expect(await dryRunApply(kubectl, objects)).toHaveLength(objects.length);
    const kinds = new Set(objects.map((object) => object.kind));
    for (const kind of ['CustomResourceDefinition', 'Namespace', 'ServiceAccount', 'Deployment', 'Service', 'RoleBinding']) expect(kinds).toContain(kind);
    const clusterScoped = ['CustomResourceDefinition', 'Namespace', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'];
    for (const object of objects.filter((o) => !clusterScoped.includes(o.kind) && !o.kind.startsWith('Cluster'))) {
      expect(object.metadata.namespace).toBe(namespace);
    }
  });

  it.each(INSTALLS)('$directory runs its manager as its ServiceAccount, leader-elected, probed, bounded, unprivileged', async ({ directory, serviceAccount, leaderFlag, metricsPort }) => {
    const objects = await renderKustomization({ kubectl: env.kubectl, directory });
    const deployments = objects.filter((object) => object.kind === 'Deployment');
    expect(deployments).toHaveLength(1);
    const pod = podSpecOf(deployments[0] as Manifest);
    expect(pod.serviceAccountName).toBe(serviceAccount);
    expect(pod.securityContext?.runAsNonRoot).toBe(true);
    expect(pod.securityContext?.seccompProfile?.type).toBe('RuntimeDefault');
    for (const container of pod.containers) {
      expect(container.args).toContain(leaderFlag);
      expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
      expect(container.resources?.limits?.memory).toBeDefined();
      expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    }
    const metrics = objects.find((object) => object.kind === 'Service' && object.metadata.name.endsWith('-metrics-service'));
    expect((metrics as unknown as { spec: { ports: { port: number }[] } }).spec.ports.map((port) => port.port)).toEqual([metricsPort]);
  });

  it('the operator reads Ironic from the ironic ConfigMap and basic-auth files where BMO mounts them', async () => {
    const objects = await renderKustomization({ kubectl: env.kubectl, directory: 'deploy/operator/default' });
    const configMap = objects.find((object) => object.kind === 'ConfigMap') as unknown as { metadata: { name: string }; data: Record<string, string> };
    expect(configMap.metadata.name).toMatch(/^baremetal-operator-ironic-/);
    expect(Object.keys(configMap.data)).toEqual(expect.arrayContaining(['IRONIC_ENDPOINT', 'DEPLOY_KERNEL_URL', 'DEPLOY_RAMDISK_URL']));
    const deployment = objects.find((object) => object.kind === 'Deployment') as unknown as {
      spec: { template: { spec: { containers: { envFrom: { configMapRef: { name: string } }[]; volumeMounts: { name: string; mountPath: string }[] }[];
        volumes: { name: string; secret?: { secretName: string } }[] } } };
    };
    const { containers, volumes } = deployment.spec.template.spec;
    expect(containers[0]?.envFrom.map((source) => source.configMapRef.name)).toEqual([configMap.metadata.name]);
    // $METAL3_AUTH_ROOT_DIR (default /opt/metal3/auth) + ironic/{username,password}.
    expect(containers[0]?.volumeMounts).toContainEqual({ name: 'ironic-credentials', mountPath: '/opt/metal3/auth/ironic', readOnly: true });
    expect(volumes.find((volume) => volume.name === 'ironic-credentials')?.secret?.secretName).toBe('ironic-credentials');
  });

  it('the operator\'s webhook: Service, configuration and Deployment agree; cert-manager\'s objects (structure only) match them', async () => {
    const objects = await renderKustomization({ kubectl: env.kubectl, directory: 'deploy/operator/with-cert-manager' });
    const namespace = 'baremetal-operator-system';
    await ensureNamespace(kubectl, namespace);
    const rest = objects.filter((object) => !isCertManagerObject(object));
    expect(await dryRunApply(kubectl, rest)).toHaveLength(rest.length);
    type WebhookConfiguration = Manifest & { webhooks: { name: string; failurePolicy: string; clientConfig: { service: { name: string; namespace: string; path: string } };
      rules: { operations: string[]; resources: string[] }[] }[] };
    const configuration = objects.find((object) => object.kind === 'ValidatingWebhookConfiguration') as WebhookConfiguration;
    expect(configuration.webhooks).toHaveLength(6);
    const [webhook, componentsWebhook, dataImageWebhook, subscriptionWebhook, claimWebhook, attachmentWebhook] = configuration.webhooks;
    expect(webhook).toMatchObject({ name: 'baremetalhost.metal3.io', failurePolicy: 'Fail', clientConfig: { service: { namespace, path: '/validate-metal3-io-v1alpha1-baremetalhost' } } });
    expect(componentsWebhook).toMatchObject({ name: 'hostfirmwarecomponents.metal3.io', failurePolicy: 'Fail',
      clientConfig: { service: { name: webhook?.clientConfig.service.name, namespace, path: '/validate-metal3-io-v1alpha1-hostfirmwarecomponents' } } });
    expect(dataImageWebhook).toMatchObject({ name: 'dataimage.metal3.io', failurePolicy: 'Fail',
      clientConfig: { service: { name: webhook?.clientConfig.service.name, namespace, path: '/validate-metal3-io-v1alpha1-dataimage' } } });
    expect(subscriptionWebhook).toMatchObject({ name: 'bmceventsubscription.metal3.io', failurePolicy: 'Fail',
      clientConfig: { service: { name: webhook?.clientConfig.service.name, namespace, path: '/validate-metal3-io-v1alpha1-bmceventsubscription' } } });
    expect(claimWebhook).toMatchObject({ name: 'hostclaim.metal3.io', failurePolicy: 'Fail',
      clientConfig: { service: { name: webhook?.clientConfig.service.name, namespace, path: '/validate-metal3-io-v1alpha1-hostclaim' } } });
    // As BMO's: deletes too, so an attachment hosts refer to is not deleted from under them.
    expect(attachmentWebhook).toMatchObject({ name: 'hostnetworkattachment.metal3.io', failurePolicy: 'Fail',
      clientConfig: { service: { name: webhook?.clientConfig.service.name, namespace, path: '/validate-metal3-io-v1alpha1-hostnetworkattachment' } },
      rules: [{ operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['hostnetworkattachments'] }] });
    expectWebhookWiring(objects, { namespace, serviceName: webhook?.clientConfig.service.name ?? '', secretName: 'baremetal-operator-webhook-server-cert', configurations: [configuration] });
  });

  it('the provider\'s webhooks: CAPM3\'s configurations, paths and names, every CRD\'s conversion; Service, Deployment and cert-manager\'s Certificate agree', async () => {
    const objects = await renderKustomization({ kubectl: env.kubectl, directory: 'deploy/capm3/default' });
    const namespace = 'capm3-system';
    type WebhookConfiguration = Manifest & { webhooks: { name: string; failurePolicy: string; sideEffects: string; rules: { resources: string[] }[];
      clientConfig: { service: { name: string; namespace: string; path: string } } }[] };
    const configuration = (kind: string) => objects.find((object) => object.kind === kind) as WebhookConfiguration;
    const mutating = configuration('MutatingWebhookConfiguration');
    const validating = configuration('ValidatingWebhookConfiguration');
    const path = (operation: string, kind: string) => `/${operation}-infrastructure-cluster-x-k8s-io-v1beta2-${kind}`;
    expect(mutating.webhooks.map((webhook) => [webhook.name, webhook.clientConfig.service.path, webhook.rules[0]?.resources])).toEqual(
      ['metal3cluster', 'metal3remediationtemplate'].map((kind) => [`default.${kind}.infrastructure.cluster.x-k8s.io`, path('mutate', kind), [`${kind}s`]]));
    const validated = ['metal3cluster', 'metal3clustertemplate', 'metal3data', 'metal3dataclaim', 'metal3datatemplate', 'metal3machine',
      'metal3machinetemplate', 'metal3remediation', 'metal3remediationtemplate'];
    expect(validating.webhooks.map((webhook) => [webhook.name, webhook.clientConfig.service.path, webhook.rules[0]?.resources])).toEqual(
      validated.map((kind) => [`validation.${kind}.infrastructure.cluster.x-k8s.io`, path('validate', kind), [`${kind}s`]]));
    const webhooks = [...mutating.webhooks, ...validating.webhooks];
    for (const webhook of webhooks) expect(webhook).toMatchObject({ failurePolicy: 'Fail', sideEffects: 'None', clientConfig: { service: { name: 'capm3-webhook-service', namespace } } });
    // CAPM3's crd/patches: v1beta1 requests of every kind are converted by the same server, at /convert.
    const crds = objects.filter((object) => object.kind === 'CustomResourceDefinition');
    expect(crds).toHaveLength(9);
    for (const crd of crds) {
      expect((crd as unknown as { spec: { conversion: unknown } }).spec.conversion).toEqual({ strategy: 'Webhook', webhook: {
        conversionReviewVersions: ['v1'], clientConfig: { service: { name: 'capm3-webhook-service', namespace, path: '/convert' } } } });
    }
    expectWebhookWiring(objects, { namespace, serviceName: 'capm3-webhook-service', secretName: 'capm3-webhook-service-cert', configurations: [mutating, validating, ...crds] });
  });

  it('the namespace-scoped operator watches its own namespace only', async () => {
    const objects = await renderKustomization({ kubectl: env.kubectl, directory: 'deploy/operator/namespace-scoped' });
    const pod = podSpecOf(objects.find((object) => object.kind === 'Deployment') as Manifest);
    expect(pod.containers[0]?.env).toContainEqual({ name: 'WATCH_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
    const configuration = objects.find((object) => object.kind === 'ValidatingWebhookConfiguration') as unknown as { webhooks: { namespaceSelector?: unknown }[] };
    expect(configuration.webhooks.length).toBeGreaterThan(1);
    for (const webhook of configuration.webhooks) {
      expect(webhook.namespaceSelector).toEqual({ matchLabels: { 'kubernetes.io/metadata.name': 'baremetal-operator-system' } });
    }
  });

  it.each([['deploy/capm3/default', 'infrastructure-metal3'], ['deploy/ipam/default', 'ipam-metal3']])(
    'every object of %s carries clusterctl\'s provider label %s', async (directory, provider) => {
      const objects = await renderKustomization({ kubectl: env.kubectl, directory });
      for (const object of objects) expect(object.metadata.labels?.['cluster.x-k8s.io/provider']).toBe(provider);
    });
});
