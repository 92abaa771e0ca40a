import { join } from 'node:path';
import { z } from 'zod';
import { run } from '../stack/commands.ts';
import { repoRoot } from '../stack/paths.ts';

/** The managers of the pinned Cluster API module: core, and the kubeadm bootstrap and control plane providers. */
export type ClusterApiComponent = 'core' | 'kubeadm-bootstrap' | 'kubeadm-control-plane';

export interface ComponentBuild {
  /** The manager binary. */
  manager: string;
  /** Its `config/webhook/manifests.yaml` in the module. */
  webhookManifests: string;
}

export interface ClusterApiBuild {
  components: Record<ClusterApiComponent, ComponentBuild>;
  clusterctl: string;
  /** clusterctl's CRD name preflight check over a components YAML on stdin (`crd-name-check/main.go`). */
  crdNameCheck: string;
  /** The module's source in the Go module cache: CRDs and webhook manifests come from here. */
  moduleDir: string;
  /** Core Cluster API's CRDs. */
  crdDir: string;
}

const buildOutput = z.object({ CAPI_BIN_DIR: z.string().min(1), CAPI_MODULE_DIR: z.string().min(1) });

/** Where each manager's main package and config live in the module, and the binary build.sh names it. */
const COMPONENT_LAYOUT: Record<ClusterApiComponent, { binary: string; configDir: string[] }> = {
  core: { binary: 'capi-manager', configDir: ['core', 'config'] },
  'kubeadm-bootstrap': { binary: 'kubeadm-bootstrap-manager', configDir: ['bootstrap', 'kubeadm', 'config'] },
  'kubeadm-control-plane': { binary: 'kubeadm-control-plane-manager', configDir: ['controlplane', 'kubeadm', 'config'] },
};

/** Builds (or reuses from the cache) the pinned Cluster API managers and clusterctl. */
export async function buildClusterApi(): Promise<ClusterApiBuild> {
  const out = await run('bash', [join(repoRoot, 'hack', 'capi', 'build.sh')], { component: 'cluster-api build' });
  const fields = Object.fromEntries(out.split('\n').map((line) => line.split(/=(.*)/s, 2)).filter((pair) => pair.length === 2));
  const { CAPI_BIN_DIR: binDir, CAPI_MODULE_DIR: moduleDir } = buildOutput.parse(fields);
  const component = (name: ClusterApiComponent): ComponentBuild => ({
    manager: join(binDir, COMPONENT_LAYOUT[name].binary),
    webhookManifests: join(moduleDir, ...COMPONENT_LAYOUT[name].configDir, 'webhook', 'manifests.yaml'),
  });
  return {
    components: { core: component('core'), 'kubeadm-bootstrap': component('kubeadm-bootstrap'), 'kubeadm-control-plane': component('kubeadm-control-plane') },
    clusterctl: join(binDir, 'clusterctl'),
    crdNameCheck: join(binDir, 'crd-name-check'),
    moduleDir,
    crdDir: join(moduleDir, 'core', 'config', 'crd', 'bases'),
  };
}
