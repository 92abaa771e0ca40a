import { randomBytes } from 'node:crypto';
import type { Kubectl } from './kubectl.ts';

export async function createUniqueNamespace(kubectl: Kubectl, prefix: string): Promise<string> {
  const name = `${prefix}-${randomBytes(4).toString('hex')}`;
  await kubectl.ok(['create', 'namespace', name]);
  return name;
}

/** Creates the namespace unless it exists; true when this call created it (files running side by side may race here). */
export async function ensureNamespace(kubectl: Kubectl, name: string): Promise<boolean> {
  const created = await kubectl.run(['create', 'namespace', name]);
  if (created.code === 0) return true;
  if (created.stderr.includes('AlreadyExists')) return false;
  throw new Error(`kubectl create namespace ${name} failed (${created.code}): ${created.stderr.trim()}`);
}

/**
 * Deletes an emptied namespace. The test API server runs no namespace controller, so the
 * `kubernetes` finalizer would hold it in Terminating forever; clearing it through the
 * finalize subresource (what that controller does when done) lets the deletion finish.
 */
export async function deleteNamespace(kubectl: Kubectl, name: string): Promise<void> {
  await kubectl.ok(['delete', 'namespace', name, '--wait=false', '--ignore-not-found']);
  const found = await kubectl.run(['get', 'namespace', name, '-o', 'json']);
  if (found.code !== 0) return;
  const namespace = JSON.parse(found.stdout) as { spec?: { finalizers?: string[] } };
  namespace.spec = { ...namespace.spec, finalizers: [] };
  await kubectl.ok(['replace', '--raw', `/api/v1/namespaces/${name}/finalize`, '-f', '-'], JSON.stringify(namespace));
}
