import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { waitUntil } from '../../../hack/stack/processes.ts';
import { providerConversion, type ProviderConversion } from '../../../hack/stack/provider-conversion.ts';
import { prepareProviderWebhook, type ProviderWebhook } from '../../../hack/stack/provider-webhook.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';

jest.setTimeout(120_000);

type Manifest = Record<string, unknown>;
interface Stored { metadata: { annotations?: Record<string, string> }; spec: Manifest; status?: Manifest }
const GROUP = 'infrastructure.cluster.x-k8s.io';
const CONVERSION_DATA = 'cluster.x-k8s.io/conversion-data';

/**
 * CAPM3's v1beta1 API beside v1beta2: the real API server, with deploy/capm3's CRDs pointed at
 * the real provider process's /convert (and its admission webhooks, scoped to this namespace),
 * stores v1beta1 manifests as v1beta2 and serves stored objects back in v1beta1. What is asserted
 * is what the API server stored and served.
 */
describe('CAPM3 v1beta1 conversion', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let webhook: ProviderWebhook | undefined;
  let conversion: ProviderConversion | undefined;
  let provider: ProviderProcess | undefined;

  const manifest = (version: string, kind: string, name: string, spec: Manifest): Manifest =>
    ({ apiVersion: `${GROUP}/${version}`, kind, metadata: { name, namespace }, spec });
  /** The object as the API server serves it in one version: `metal3clusters.v1beta1.infrastructure.cluster.x-k8s.io`. */
  const read = (plural: string, version: string, name: string) => kubectl.json<Stored>(['get', `${plural}.${version}.${GROUP}`, name, '-n', namespace]);

  beforeAll(async () => {
    await installProviderCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'capm3-conversion');
    webhook = await prepareProviderWebhook({ target: env, dir: join(env.stateDir, 'webhooks', namespace), name: `capm3-${namespace}`, namespace });
    conversion = providerConversion({ target: env, port: webhook.port, caPem: webhook.caPem, namespace });
    // Its controllers watch another namespace: only the webhooks touch this one's objects, so the statuses set here stay as set.
    provider = startProviderProcess({
      env, namespace: `${namespace}-unwatched`, label: `conversion-${namespace}`, extraArgs: [`--webhook-port=${webhook.port}`, `--webhook-cert-dir=${webhook.certDir}`],
    });
    await webhook.register(provider.process);
    await conversion.register(provider.process);
  });

  afterAll(async () => {
    await conversion?.unregister();
    await webhook?.unregister();
    await provider?.stop();
    if (namespace) await deleteProviderNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  it('serves v1beta1 as a deprecated version beside the v1beta2 storage version, as CAPM3\'s CRDs do', async () => {
    const crd = await kubectl.json<{ metadata: { labels: Record<string, string> }; spec: { versions: { name: string; served: boolean; storage: boolean; deprecated?: boolean }[] } }>(
      ['get', 'crd', `metal3machines.${GROUP}`]);
    expect(crd.spec.versions.map(({ name, served, storage, deprecated }) => ({ name, served, storage, deprecated: deprecated ?? false }))).toEqual([
      { name: 'v1beta1', served: true, storage: false, deprecated: true },
      { name: 'v1beta2', served: true, storage: true, deprecated: false },
    ]);
    expect(crd.metadata.labels).toMatchObject({ 'cluster.x-k8s.io/v1beta1': 'v1beta1', 'cluster.x-k8s.io/v1beta2': 'v1beta2' });
  });

  it('stores a v1beta1 Metal3Cluster as v1beta2 and serves it, status included, back in v1beta1', async () => {
    const applied = await kubectl.run(['apply', '-f', '-'], JSON.stringify(manifest('v1beta1', 'Metal3Cluster', 'old-style', {
      controlPlaneEndpoint: { host: '127.0.0.1', port: 6443 }, noCloudProvider: true,
      failureDomains: { 'rack-b': { controlPlane: false, attributes: { row: '2' } }, 'rack-a': { controlPlane: true } },
    })));
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain('v1beta1 Metal3Cluster is deprecated');
    const stored = await read('metal3clusters', 'v1beta2', 'old-style');
    expect(stored.spec).toEqual({
      controlPlaneEndpoint: { host: '127.0.0.1', port: 6443 }, cloudProviderEnabled: false,
      failureDomains: [{ name: 'rack-a', controlPlane: true }, { name: 'rack-b', attributes: { row: '2' } }],
    });
    expect(stored.metadata.annotations?.[CONVERSION_DATA]).toBeUndefined();

    const provisioned = { initialization: { provisioned: true }, conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: '', lastTransitionTime: '2026-12-05T10:00:00Z' }] };
    await kubectl.ok(['patch', `metal3clusters.v1beta2.${GROUP}`, 'old-style', '-n', namespace, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: provisioned })]);
    const old = await read('metal3clusters', 'v1beta1', 'old-style');
    expect(old.spec).toEqual({
      controlPlaneEndpoint: { host: '127.0.0.1', port: 6443 }, cloudProviderEnabled: false, noCloudProvider: true,
      failureDomains: { 'rack-a': { controlPlane: true }, 'rack-b': { controlPlane: false, attributes: { row: '2' } } },
    });
    expect(old.status).toEqual({ ready: true, v1beta2: { conditions: provisioned.conditions } });
    expect(JSON.parse(old.metadata.annotations?.[CONVERSION_DATA] ?? '{}')).toMatchObject({ spec: stored.spec });
  });

  it('keeps what only v1beta2 can say when a template is edited through v1beta1', async () => {
    await kubectl.ok(['create', '-f', '-'], JSON.stringify(manifest('v1beta2', 'Metal3MachineTemplate', 'workers', {
      nodeReuse: true,
      template: { metadata: { labels: { tier: 'gold' } }, spec: { image: { url: 'http://127.0.0.1/a.qcow2', checksum: 'abc', checksumType: 'sha256', diskFormat: 'qcow2' } } },
    })));
    const old = await read('metal3machinetemplates', 'v1beta1', 'workers');
    expect(old.spec).toEqual({ nodeReuse: true, template: { spec: { image: { url: 'http://127.0.0.1/a.qcow2', checksum: 'abc', checksumType: 'sha256', format: 'qcow2' } } } });
    const image = (old.spec.template as { spec: { image: Manifest } }).spec.image;
    image.url = 'http://127.0.0.1/b.qcow2';
    await kubectl.ok(['replace', '-f', '-'], JSON.stringify(old));
    const stored = await read('metal3machinetemplates', 'v1beta2', 'workers');
    expect(stored.spec).toEqual({
      nodeReuse: true,
      template: { metadata: { labels: { tier: 'gold' } }, spec: { image: { url: 'http://127.0.0.1/b.qcow2', checksum: 'abc', checksumType: 'sha256', diskFormat: 'qcow2' } } },
    });
    expect(stored.metadata.annotations?.[CONVERSION_DATA]).toBeUndefined();
  });

  it('renames a v1beta1 data template\'s fields and turns a remediation timeout into seconds', async () => {
    const pool = [{ key: 'ip', name: 'provisioning' }];
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
      manifest('v1beta1', 'Metal3DataTemplate', 'nodes', {
        clusterName: 'c1', metaData: { ipAddressesFromIPPool: pool, gatewaysFromIPPool: pool },
        networkData: { links: {
          ethernets: [{ type: 'phy', id: 'eth0', macAddress: { fromHostInterface: 'eth0' } }],
          bonds: [{ id: 'bond0', bondMode: '802.3ad', bondLinks: ['eth0'], parameters: { miimon: 100, lacp_rate: 'fast' } }],
        } },
      }),
      manifest('v1beta1', 'Metal3RemediationTemplate', 'reboot', { template: { spec: { strategy: { type: 'Reboot', retryLimit: 2, timeout: '5m' } } } }),
      manifest('v1beta1', 'Metal3RemediationTemplate', 'reboot-defaults', { template: { spec: { strategy: { type: 'Reboot' } } } }),
    ] }));
    const template = await read('metal3datatemplates', 'v1beta2', 'nodes');
    // Read as v1beta2, CAPM3's v1beta2 defaults fill the pool's group and kind; the MTU is both versions' default.
    const defaultedPool = [{ ...pool[0], apiGroup: 'ipam.metal3.io', kind: 'IPPool' }];
    expect(template.spec.metaData).toEqual({ ipAddressesFromPool: defaultedPool, gatewaysFromPool: defaultedPool });
    expect((template.spec.networkData as { links: { bonds: unknown[] } }).links.bonds).toEqual([
      { id: 'bond0', bondMode: '802.3ad', bondLinks: ['eth0'], mtu: 1500, parameters: [{ name: 'lacp_rate', value: 'fast' }, { name: 'miimon', value: 100 }] },
    ]);
    expect((await read('metal3datatemplates', 'v1beta1', 'nodes')).spec.metaData).toEqual({ ipAddressesFromIPPool: defaultedPool, gatewaysFromIPPool: defaultedPool });
    expect((await read('metal3remediationtemplates', 'v1beta2', 'reboot')).spec).toEqual({ template: { spec: { strategy: { type: 'Reboot', retryLimit: 2, timeoutSeconds: 300 } } } });
    // What the v1beta1 manifest left out is defaulted in v1beta2 (1 retry, 600 s); v1beta1 readers see the timeout as a Go duration.
    expect((await read('metal3remediationtemplates', 'v1beta1', 'reboot-defaults')).spec).toEqual({ template: { spec: { strategy: { type: 'Reboot', retryLimit: 1, timeout: '10m0s' } } } });
  });

  it('passes v1beta1 requests through CAPM3\'s admission webhooks once converted', async () => {
    const refused = await kubectl.run(['create', '-f', '-'], JSON.stringify(manifest('v1beta1', 'Metal3Machine', 'no-checksum',
      { image: { url: 'http://127.0.0.1/os.raw', format: 'raw' } })));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('The Metal3Machine "no-checksum" is invalid: ');
    expect(refused.stderr).toContain('spec.image.checksum: Required value');
    expect((await kubectl.run(['get', 'metal3machines', 'no-checksum', '-n', namespace])).code).not.toBe(0);
  });

  it('refuses a v1beta1 object it cannot convert, saying which field and why, and stores nothing', async () => {
    const refused = await kubectl.run(['create', '-f', '-'], JSON.stringify(manifest('v1beta1', 'Metal3RemediationTemplate', 'bad-timeout',
      { template: { spec: { strategy: { type: 'Reboot', timeout: 'soon' } } } })));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`Metal3RemediationTemplate ${namespace}/bad-timeout: spec.template.spec.strategy.timeout: "soon" is not a duration`);
    expect((await kubectl.run(['get', 'metal3remediationtemplates', 'bad-timeout', '-n', namespace])).code).not.toBe(0);
    const logged = () => readFileSync(provider!.logPath, 'utf8').includes('"conversion refused"');
    await waitUntil(async () => logged(), { what: 'the refusal in the provider log', timeoutMs: 10_000, intervalMs: 100 });
  });
});
