import { join } from 'node:path';
import { z } from 'zod';
import { run } from '../stack/commands.ts';
import { repoRoot } from '../stack/paths.ts';

export interface ClusterApiBuild {
  /** The core manager (`sigs.k8s.io/cluster-api/core`). */
  manager: string;
  clusterctl: string;
  /** clusterctl's CRD name preflight check over a components YAML on stdin (`crd-name-check/main.go`). */
  crdNameCheck: string;
  /** The module's source in the Go module cache: CRDs and webhook manifests come from here. */
  moduleDir: string;
  crdDir: string;
  webhookManifests: string;
}

const buildOutput = z.object({ CAPI_BIN_DIR: z.string().min(1), CAPI_MODULE_DIR: z.string().min(1) });

/** Builds (or reuses from the cache) the pinned Cluster API core manager and clusterctl. */
export async function buildClusterApi(): Promise<ClusterApiBuild> {
  const out = await run('bash', [join(repoRoot, 'hack', 'capi', 'build.sh')], { component: 'cluster-api build' });
  const fields = Object.fromEntries(out.split('\n').map((line) => line.split(/=(.*)/s, 2)).filter((pair) => pair.length === 2));
  const { CAPI_BIN_DIR: binDir, CAPI_MODULE_DIR: moduleDir } = buildOutput.parse(fields);
  return {
    manager: join(binDir, 'capi-manager'),
    clusterctl: join(binDir, 'clusterctl'),
    crdNameCheck: join(binDir, 'crd-name-check'),
    moduleDir,
    crdDir: join(moduleDir, 'core', 'config', 'crd', 'bases'),
    webhookManifests: join(moduleDir, 'core', 'config', 'webhook', 'manifests.yaml'),
  };
}
