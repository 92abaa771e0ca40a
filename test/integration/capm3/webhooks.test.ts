import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { freePort } from '../../../hack/stack/ports.ts';
import { prepareProviderWebhook, type ProviderWebhook } from '../../../hack/stack/provider-webhook.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';

jest.setTimeout(120_000);

type Manifest = Record<string, unknown>;
const API_VERSION = 'infrastructure.cluster.x-k8s.io/v1beta2';
const IMAGE = { url: 'http://127.0.0.1:1/os.raw', checksum: 'http://127.0.0.1:1/os.raw.sha256sum', checksumType: 'sha256', diskFormat: 'raw' };
/** How kubectl prints a webhook's 422 Invalid (apierrors.NewInvalid in CAPM3): from the status details' kind and name. */
const invalid = (kind: string, name: string) => `The ${kind} "${name}" is invalid: `;

/**
 * CAPM3's defaulting and validating webhooks, served by the real provider process (started with
 * CAPM3's manager arguments and Cluster API's TLS flags) and called by the real API server, with
 * deploy/capm3's configurations scoped to this test's namespace. What is asserted is what the
 * API server stored or refused.
 */
describe('CAPM3 admission webhooks', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let webhook: ProviderWebhook | undefined;
  let provider: ProviderProcess | undefined;

  const object = (kind: string, name: string, spec: Manifest): Manifest => ({ apiVersion: API_VERSION, kind, metadata: { name, namespace }, spec });
  /** `kubectl create -o json`: the object as stored right after admission, before any controller saw it. */
  const create = (manifest: Manifest) => kubectl.run(['create', '-o', 'json', '-f', '-'], JSON.stringify(manifest));
  const stored = async (kind: string, name: string) => (await kubectl.run(['get', kind, name, '-n', namespace, '-o', 'json'])).code === 0;
  const get = async <T>(kind: string, name: string) => kubectl.json<T>(['get', kind, name, '-n', namespace]);
  const patch = (kind: string, name: string, body: Manifest) => kubectl.run(['patch', kind, name, '-n', namespace, '--type=merge', '-p', JSON.stringify(body)]);

  beforeAll(async () => {
    await installProviderCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'capm3-webhooks');
    webhook = await prepareProviderWebhook({ target: env, dir: join(env.stateDir, 'webhooks', namespace), name: `capm3-${namespace}`, namespace });
    const diagnosticsPort = await freePort();
    provider = startProviderProcess({
      env, namespace, label: `webhooks-${namespace}`,
      // CAPM3's config/manager/manager.yaml (port and cert dir moved to this test's), then Cluster API's TLS flags.
      extraArgs: [`--webhook-port=${webhook.port}`, `--webhook-cert-dir=${webhook.certDir}`, '--enable-bmh-name-based-preallocation=false',
        `--diagnostics-address=127.0.0.1:${diagnosticsPort}`, '--insecure-diagnostics=false', '--tls-min-version=VersionTLS13', '--tls-curve-preferences=29,23'],
    });
    await webhook.register(provider.process);
  });

  afterAll(async () => {
    await webhook?.unregister();
    await provider?.stop();
    if (namespace) await deleteProviderNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  it('defaults a Metal3Cluster\'s port to 6443 and its cloud provider to off, and keeps a port that is set', async () => {
    const created = await create(object('Metal3Cluster', 'defaulted', { controlPlaneEndpoint: { host: '192.0.2.10' } }));
    expect(created.stderr).toBe('');
    expect((JSON.parse(created.stdout) as { spec: Manifest }).spec).toEqual({ controlPlaneEndpoint: { host: '192.0.2.10', port: 6443 }, cloudProviderEnabled: false });
    const kept = await create(object('Metal3Cluster', 'own-port', { controlPlaneEndpoint: { host: '192.0.2.11', port: 8443 }, cloudProviderEnabled: true }));
    expect((JSON.parse(kept.stdout) as { spec: Manifest }).spec).toEqual({ controlPlaneEndpoint: { host: '192.0.2.11', port: 8443 }, cloudProviderEnabled: true });
  });

  it('refuses a Metal3Cluster or Metal3ClusterTemplate without its endpoint, as CAPM3 words it, and stores nothing', async () => {
    const cluster = await create(object('Metal3Cluster', 'no-host', { controlPlaneEndpoint: { port: 6443 } }));
    expect(cluster.code).not.toBe(0);
    expect(cluster.stderr).toContain(`${invalid('Metal3Cluster', 'no-host')}spec.controlPlaneEndpoint: Invalid value: ""`);
    const template = await create(object('Metal3ClusterTemplate', 'no-port', { template: { spec: { controlPlaneEndpoint: { host: '192.0.2.10' } } } }));
    expect(template.stderr).toContain('spec.template.spec.controlPlaneEndpoint.port: Required value');
    expect([await stored('m3c', 'no-host'), await stored('metal3clustertemplates', 'no-port')]).toEqual([false, false]);
  });

  it('refuses Metal3Machines and templates CAPM3 refuses, accepts a good one, and refuses an update that breaks it', async () => {
    const refused = await Promise.all([
      create(object('Metal3Machine', 'no-image', {})),
      create(object('Metal3Machine', 'oci-checksum', { image: { url: 'oci://127.0.0.1:5000/os:1', checksum: 'abc' } })),
      create(object('Metal3Machine', 'foreign-data', { image: IMAGE, userData: { name: 'user-data', namespace: 'default' } })),
      create(object('Metal3MachineTemplate', 'no-checksum', { template: { spec: { image: { url: IMAGE.url } } } })),
    ]);
    expect(refused.map((result) => result.stderr.match(/is invalid: ([^:]+): /)?.[1]))
      .toEqual(['spec.image', 'spec.image.checksum', 'spec.userData.namespace', 'spec.template.spec.image.checksum']);
    expect(refused[2]?.stderr).toContain('Forbidden: cross-namespace secret references are not allowed');

    expect((await create(object('Metal3Machine', 'good', { image: IMAGE }))).stderr).toBe('');
    const broken = await patch('m3m', 'good', { spec: { image: { checksum: null } } });
    expect(broken.stderr).toContain(`${invalid('Metal3Machine', 'good')}spec.image.checksum: Required value`);
    expect((await get<{ spec: { image: Manifest } }>('m3m', 'good')).spec.image).toEqual(IMAGE);
    for (const name of ['no-image', 'oci-checksum', 'foreign-data']) expect(await stored('m3m', name)).toBe(false);
  });

  it('holds a Metal3DataTemplate\'s data fixed once created, refuses a pool-less static network, and warns about clusterName', async () => {
    const poolless = await create(object('Metal3DataTemplate', 'no-pool', { networkData: { networks: { ipv4: [{ id: 'provisioning', link: 'enp1s0' }] } } }));
    expect(poolless.stderr).toContain('spec.networkData.networks.ipv4[0].fromPoolRef.name: Required value');
    const created = await create(object('Metal3DataTemplate', 'data', {
      clusterName: 'c1', networkData: { networks: { ipv4: [{ id: 'provisioning', link: 'enp1s0', ipAddressFromIPPool: 'pool' }] } },
    }));
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('Warning: spec.clusterName is deprecated');
    const changed = await patch('m3dt', 'data', { spec: { networkData: { networks: { ipv4: [{ id: 'provisioning', link: 'enp2s0', ipAddressFromIPPool: 'pool' }] } } } });
    expect(changed.stderr).toContain('spec.networkData: Invalid value');
    expect(changed.stderr).toContain('cannot be modified');
    expect((await patch('m3dt', 'data', { metadata: { labels: { team: 'a' } } })).code).toBe(0);
    const template = await get<{ metadata: { labels: Record<string, string> }; spec: { networkData: { networks: { ipv4: { link: string }[] } } } }>('m3dt', 'data');
    expect([template.metadata.labels.team, template.spec.networkData.networks.ipv4[0]?.link]).toEqual(['a', 'enp1s0']);
  });

  it('refuses a Metal3Data off its naming convention and a Metal3DataClaim naming another namespace\'s template', async () => {
    const data = await create(object('Metal3Data', 'misnamed', { index: 3, template: { name: 'data' }, claim: { name: 'm1' } }));
    expect(data.stderr).toContain('metadata.name: Invalid value: "misnamed": should follow the convention <Metal3DataTemplate name>-<index> (data-3)');
    const claim = await create(object('Metal3DataClaim', 'foreign', { template: { name: 'data', namespace: 'default' } }));
    expect(claim.stderr).toContain('spec.template.namespace: Invalid value: "default"');
    expect([await stored('m3d', 'misnamed'), await stored('m3dc', 'foreign')]).toEqual([false, false]);
  });

  it('defaults a Metal3RemediationTemplate\'s strategy to Reboot, and refuses a Metal3Remediation whose strategy has no type', async () => {
    const created = await create(object('Metal3RemediationTemplate', 'reboot', { template: { spec: { strategy: { retryLimit: 2 } } } }));
    expect((JSON.parse(created.stdout) as { spec: Manifest }).spec).toEqual({ template: { spec: { strategy: { type: 'Reboot', retryLimit: 2, timeoutSeconds: 600 } } } });
    const untyped = await create(object('Metal3Remediation', 'untyped', { strategy: { retryLimit: 1, timeoutSeconds: 600 } }));
    expect(untyped.stderr).toContain('spec.strategy.type: Invalid value: "": the only supported remediation strategy is Reboot');
  });

  it('serves only what --tls-min-version allows: a TLS 1.2 client is refused where the API server got through', async () => {
    const handshake = (maxVersion: 'TLSv1.2' | 'TLSv1.3') => new Promise<string>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: webhook?.port ?? 0, maxVersion, rejectUnauthorized: false }, () => {
        resolve(socket.getProtocol() ?? 'none');
        socket.end();
      });
      socket.on('error', (error) => resolve(`refused: ${error.message}`));
    });
    expect(await handshake('TLSv1.3')).toBe('TLSv1.3');
    expect(await handshake('TLSv1.2')).toMatch(/^refused: .*(protocol version|unsupported protocol)/i);
  });
});
