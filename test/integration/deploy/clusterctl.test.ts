import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse, stringify } from 'yaml';
import { buildClusterApi, installKubeadmCrds } from '../../../hack/capi/index.ts';
import { COMPONENTS_FILE, COMPONENTS_KUSTOMIZATION, clusterctlComponents } from '../../../hack/deploy/clusterctl-components.ts';
import { run } from '../../../hack/stack/commands.ts';
import { parseManifests, renderKustomization } from '../../../hack/stack/kustomize.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace, ensureNamespace } from '../../support/namespaces.ts';
import { installIpamCrds } from '../../support/ipam-crds.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { isCertManagerObject } from './dry-run.ts';

const CLUSTERCTL_DIR = join(repoRoot, 'deploy', 'capm3', 'clusterctl');

/** The provider in clusterctl's layout, rendered by the real clusterctl and accepted by the real API server. */
describe('clusterctl provider files in deploy/capm3/clusterctl', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  // clusterctl reads and writes its configuration under the home directory: keep it out of the user's.
  const home = mkdtempSync(join(tmpdir(), 'clusterctl-home-'));
  let clusterctl = '';
  let crdNameCheck = '';
  let namespace = '';

  const runClusterctl = (args: string[], variables: Record<string, string>) =>
    run(clusterctl, args, { component: 'clusterctl', env: { HOME: home, XDG_CONFIG_HOME: home, ...variables } });
  const dryRun = (yaml: string) =>
    kubectl.ok(['apply', '--server-side', '--force-conflicts', '--field-manager=clusterctl-test', '--dry-run=server', '-o', 'name', '-f', '-'], yaml);

  beforeAll(async () => {
    ({ clusterctl, crdNameCheck } = await buildClusterApi());
    await installProviderCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'clusterctl');
  }, 900_000);

  afterAll(async () => {
    if (namespace) await deleteNamespace(kubectl, namespace);
    kubectl.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  it('infrastructure-components.yaml is the kustomize install with clusterctl variables, and is up to date', async () => {
    const expected = clusterctlComponents(await renderKustomization({ kubectl: env.kubectl, directory: COMPONENTS_KUSTOMIZATION }));
    expect(readFileSync(join(repoRoot, COMPONENTS_FILE), 'utf8')).toBe(expected);
  });

  it('passes clusterctl init\'s CRD name check: metal3datas carries the annotation that skips it, as in CAPM3', async () => {
    // clusterctl computes metal3data (flect's plural of Metal3Data) and refuses metal3datas without the annotation.
    const components = readFileSync(join(CLUSTERCTL_DIR, 'infrastructure-components.yaml'), 'utf8');
    const report = await run(crdNameCheck, [], { component: 'crd-name-check', input: components });
    expect(report).toContain('skipped metal3datas.infrastructure.cluster.x-k8s.io (clusterctl expects metal3data.infrastructure.cluster.x-k8s.io)');
    expect(report).toContain('ok metal3machines.infrastructure.cluster.x-k8s.io');
    const templates = parseManifests(components).find((object) => object.metadata?.name === 'metal3datatemplates.infrastructure.cluster.x-k8s.io');
    // clusterctl move takes Metal3DataTemplates along even when no Cluster owns them.
    expect(templates?.metadata?.labels).toMatchObject({ 'clusterctl.cluster.x-k8s.io/move': '' });
  });

  it('clusterctl lists the components\' variables and renders them, and the API server accepts every object', async () => {
    const from = join(CLUSTERCTL_DIR, 'infrastructure-components.yaml');
    const variables = await runClusterctl(['generate', 'yaml', '--from', from, '--list-variables'], {});
    expect(variables).toContain('CAPM3_FAST_TRACK');
    const rendered = await runClusterctl(['generate', 'yaml', '--from', from], { CAPM3_FAST_TRACK: 'true' });
    const objects = parseManifests(rendered);
    const deployment = objects.find((object) => object.kind === 'Deployment') as unknown as {
      spec: { template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } };
    };
    expect(deployment.spec.template.spec.containers[0]?.env).toContainEqual({ name: 'CAPM3_FAST_TRACK', value: 'true' });
    await ensureNamespace(kubectl, 'capm3-system');
    // cert-manager's objects are checked by structure only (deploy/install.test.ts): the test API server lacks their CRDs.
    const accepted = objects.filter((object) => !isCertManagerObject(object));
    expect(accepted.length).toBe(objects.length - 2);
    const applied = await dryRun(accepted.map((object) => stringify(object)).join('---\n'));
    expect(applied.trim().split('\n')).toHaveLength(accepted.length);
  });

  it('metadata.yaml maps this release series to the v1beta2 contract its CRDs declare', () => {
    const metadata = parse(readFileSync(join(CLUSTERCTL_DIR, 'metadata.yaml'), 'utf8')) as {
      kind: string; releaseSeries: { major: number; minor: number; contract: string }[];
    };
    const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version.split('.').map(Number);
    expect(metadata.kind).toBe('Metadata');
    expect(metadata.releaseSeries).toContainEqual({ major: version[0], minor: version[1], contract: 'v1beta2' });
  });

  it('clusterctl generate cluster renders cluster-template.yaml with the user\'s variables, and the API server accepts it', async () => {
    const from = join(CLUSTERCTL_DIR, 'cluster-template.yaml');
    const listed = await runClusterctl(['generate', 'cluster', 'demo', '--from', from, '--list-variables', '--kubeconfig', env.kubeconfig], {});
    for (const variable of ['IMAGE_URL', 'IMAGE_CHECKSUM', 'CLUSTER_APIENDPOINT_HOST', 'WORKER_HOST_ROLE', 'CONTROL_PLANE_HOST_ROLE']) {
      expect(listed).toContain(variable);
    }
    const rendered = await runClusterctl(
      ['generate', 'cluster', 'demo', '--from', from, '--kubeconfig', env.kubeconfig, '--target-namespace', namespace, '--worker-machine-count', '3'],
      { IMAGE_URL: 'http://images.example/os.raw', IMAGE_CHECKSUM: 'http://images.example/os.raw.sha256sum', CLUSTER_APIENDPOINT_HOST: '192.0.2.10',
        WORKER_HOST_ROLE: 'big-worker' },
    );
    const objects = parseManifests(rendered);
    expect(objects.map((object) => object.kind)).toEqual(['Cluster', 'Metal3Cluster', 'Metal3Machine', 'Machine', 'Metal3MachineTemplate', 'MachineDeployment']);
    expect(rendered).not.toContain('${');
    const byKind = (kind: string) => objects.find((object) => object.kind === kind) as unknown as { spec: Record<string, unknown> };
    expect(byKind('Metal3Cluster').spec).toEqual({ controlPlaneEndpoint: { host: '192.0.2.10', port: 6443 } });
    expect(byKind('MachineDeployment').spec.replicas).toBe(3);
    expect(byKind('Metal3MachineTemplate').spec).toMatchObject({ template: { spec: {
      image: { url: 'http://images.example/os.raw', checksum: 'http://images.example/os.raw.sha256sum', checksumType: 'sha256', diskFormat: 'raw' },
      hostSelector: { matchLabels: { role: 'big-worker' } } } } });
    const applied = await dryRun(rendered);
    expect(applied.trim().split('\n')).toHaveLength(objects.length);
  });

  it('the ipam flavour adds an IPPool and a Metal3DataTemplate the workers render their network data from, and the API server accepts it', async () => {
    const from = join(CLUSTERCTL_DIR, 'cluster-template-ipam.yaml');
    const rendered = await runClusterctl(
      ['generate', 'cluster', 'demo', '--from', from, '--kubeconfig', env.kubeconfig, '--target-namespace', namespace, '--worker-machine-count', '2'],
      { IMAGE_URL: 'http://images.example/os.raw', IMAGE_CHECKSUM: 'http://images.example/os.raw.sha256sum', CLUSTER_APIENDPOINT_HOST: '192.0.2.10',
        IPPOOL_RANGE_START: '192.0.2.100', IPPOOL_RANGE_END: '192.0.2.199', IPPOOL_GATEWAY: '192.0.2.1', IPPOOL_DNS_SERVER: '192.0.2.53' },
    );
    const objects = parseManifests(rendered);
    expect(objects.map((object) => object.kind)).toEqual(['Cluster', 'Metal3Cluster', 'Metal3Machine', 'Machine', 'Metal3MachineTemplate',
      'MachineDeployment', 'IPPool', 'Metal3DataTemplate']);
    expect(rendered).not.toContain('${');
    const byKind = (kind: string) => objects.find((object) => object.kind === kind) as unknown as { spec: Record<string, unknown> };
    expect(byKind('Metal3MachineTemplate').spec).toMatchObject({ template: { spec: { dataTemplate: { name: 'demo-workers-data' } } } });
    expect(byKind('IPPool').spec).toEqual({ clusterName: 'demo', namePrefix: 'demo-provisioning', pools: [{ start: '192.0.2.100', end: '192.0.2.199' }],
      prefix: 24, gateway: '192.0.2.1', dnsServers: ['192.0.2.53'] });
    expect(byKind('Metal3DataTemplate').spec).toMatchObject({ networkData: { networks: { ipv4: [{ ipAddressFromIPPool: 'demo-provisioning', link: 'enp1s0' }] } } });
    await installIpamCrds(kubectl, env);
    const applied = await dryRun(rendered);
    expect(applied.trim().split('\n')).toHaveLength(objects.length);
  });

  it('the kubeadm flavour: KubeadmControlPlane and KubeadmConfigTemplate over Metal3MachineTemplates, and the API server (with kubeadm\'s CRDs) accepts it', async () => {
    const from = join(CLUSTERCTL_DIR, 'cluster-template-kubeadm.yaml');
    const rendered = await runClusterctl(
      ['generate', 'cluster', 'demo', '--from', from, '--kubeconfig', env.kubeconfig, '--target-namespace', namespace,
        '--kubernetes-version', 'v1.35.0', '--control-plane-machine-count', '3', '--worker-machine-count', '2'],
      { IMAGE_URL: 'http://images.example/os.raw', IMAGE_CHECKSUM: 'http://images.example/os.raw.sha256sum', CLUSTER_APIENDPOINT_HOST: '192.0.2.10' },
    );
    const objects = parseManifests(rendered);
    expect(objects.map((object) => `${object.kind}/${object.metadata.name}`)).toEqual(['Cluster/demo', 'Metal3Cluster/demo',
      'KubeadmControlPlane/demo-control-plane', 'Metal3MachineTemplate/demo-control-plane', 'MachineDeployment/demo-workers',
      'Metal3MachineTemplate/demo-workers', 'KubeadmConfigTemplate/demo-workers']);
    expect(rendered).not.toContain('${');
    type Ref = { apiGroup: string; kind: string; name: string };
    const find = (kind: string, name: string) => objects.find((object) => object.kind === kind && object.metadata.name === name) as unknown as { spec: Record<string, unknown> };
    // Every reference names an object of this template, in its API group.
    const groupOf = (kind: string) => objects.find((object) => object.kind === kind)?.apiVersion.split('/')[0];
    const cluster = find('Cluster', 'demo').spec as { controlPlaneRef: Ref; infrastructureRef: Ref };
    const controlPlane = find('KubeadmControlPlane', 'demo-control-plane').spec as {
      replicas: number; version: string; machineTemplate: { spec: { infrastructureRef: Ref } };
      kubeadmConfigSpec: { initConfiguration: { nodeRegistration: { kubeletExtraArgs: { name: string; value: string }[] } }; joinConfiguration: unknown };
    };
    const workers = find('MachineDeployment', 'demo-workers').spec as { replicas: number; template: { spec: { version: string; bootstrap: { configRef: Ref }; infrastructureRef: Ref } } };
    for (const ref of [cluster.controlPlaneRef, cluster.infrastructureRef, controlPlane.machineTemplate.spec.infrastructureRef,
      workers.template.spec.bootstrap.configRef, workers.template.spec.infrastructureRef]) {
      expect(find(ref.kind, ref.name)).toBeDefined();
      expect(ref.apiGroup).toBe(groupOf(ref.kind));
    }
    expect(controlPlane).toMatchObject({ replicas: 3, version: 'v1.35.0' });
    expect(workers).toMatchObject({ replicas: 2, template: { spec: { version: 'v1.35.0' } } });
    // The provider finds a machine's Node by the host UID kubelet labels it with from meta_data.
    const uuidLabel = { name: 'node-labels', value: 'metal3.io/uuid={{ ds.meta_data.uuid }}' };
    expect(controlPlane.kubeadmConfigSpec.initConfiguration.nodeRegistration.kubeletExtraArgs).toEqual([uuidLabel]);
    expect(controlPlane.kubeadmConfigSpec.joinConfiguration).toMatchObject({ nodeRegistration: { kubeletExtraArgs: [uuidLabel] } });
    expect(find('KubeadmConfigTemplate', 'demo-workers').spec).toMatchObject({ template: { spec: { joinConfiguration: { nodeRegistration: { kubeletExtraArgs: [uuidLabel] } } } } });
    expect(find('Metal3MachineTemplate', 'demo-control-plane').spec).toMatchObject({ template: { spec: { hostSelector: { matchLabels: { role: 'control-plane' } } } } });
    expect(find('Metal3MachineTemplate', 'demo-workers').spec).toMatchObject({ template: { spec: { hostSelector: { matchLabels: { role: 'worker' } } } } });
    // kubeadm's CRDs from the pinned Cluster API module (their controllers do not run here): the
    // API server validates the kubeadm objects against their real schemas too.
    await installKubeadmCrds({ kubectl: env.kubectl, kubeconfig: env.kubeconfig });
    const applied = await dryRun(rendered);
    expect(applied.trim().split('\n')).toHaveLength(objects.length);
  });
});
