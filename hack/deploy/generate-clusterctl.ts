// Writes (or, with --check, verifies) deploy/capm3/clusterctl/infrastructure-components.yaml.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildKubeBinaries } from '../stack/kube.ts';
import { renderKustomization } from '../stack/kustomize.ts';
import { repoRoot } from '../stack/paths.ts';
import { COMPONENTS_FILE, COMPONENTS_KUSTOMIZATION, clusterctlComponents } from './clusterctl-components.ts';

const { kubectl } = await buildKubeBinaries();
const expected = clusterctlComponents(await renderKustomization({ kubectl, directory: COMPONENTS_KUSTOMIZATION }));
const path = join(repoRoot, COMPONENTS_FILE);
if (process.argv.includes('--check')) {
  if (readFileSync(path, 'utf8') !== expected) {
    console.error(`${COMPONENTS_FILE} is out of date: run node hack/deploy/generate-clusterctl.ts`);
    process.exitCode = 1;
  }
} else {
  writeFileSync(path, expected);
  console.log(`wrote ${COMPONENTS_FILE}`);
}
