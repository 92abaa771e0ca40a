import type { Kubectl } from './kubectl.ts';
import { waitFor } from './wait-for.ts';

interface Listed { items: { kind: string; metadata: { name: string; resourceVersion: string } }[] }

/**
 * Every object of `kinds` (a kubectl list such as `bmh,secrets,events`) in the namespace, by kind
 * and name, with its resourceVersion: a write by a controller shows as a new version or object.
 */
export async function namespaceObjectVersions(kubectl: Kubectl, namespace: string, kinds: string): Promise<Map<string, string>> {
  const listed = await kubectl.json<Listed>(['get', kinds, '-n', namespace]);
  return new Map(listed.items.map((item) => [`${item.kind}/${item.metadata.name}`, item.metadata.resourceVersion]));
}

/** The same, once two reads a second apart agree (a request sent just before a process froze still lands). */
export async function settledObjectVersions(kubectl: Kubectl, namespace: string, kinds: string): Promise<Map<string, string>> {
  let previous = await namespaceObjectVersions(kubectl, namespace, kinds);
  return waitFor(async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const current = await namespaceObjectVersions(kubectl, namespace, kinds);
    const settled = JSON.stringify([...current]) === JSON.stringify([...previous]);
    previous = current;
    return settled ? current : undefined;
  }, { timeoutMs: 30_000, intervalMs: 0, what: 'the namespace to settle' });
}
