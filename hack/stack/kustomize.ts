import { isAbsolute, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { run } from './commands.ts';
import { repoRoot } from './paths.ts';

/** One rendered Kubernetes object, as plain JSON. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

/** `kubectl kustomize <directory>` (relative to the repository unless absolute), parsed. */
export async function renderKustomization(options: { kubectl: string; directory: string }): Promise<Manifest[]> {
  const directory = isAbsolute(options.directory) ? options.directory : join(repoRoot, options.directory);
  const rendered = await run(options.kubectl, ['kustomize', directory], { component: `kustomize ${options.directory}` });
  return parseManifests(rendered);
}

/** Every non-empty document of a multi-document YAML stream. */
export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}
