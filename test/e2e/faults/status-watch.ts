import type { Kubectl } from '../../support/kubectl.ts';
import { PeriodicSampler } from './periodic-sampler.ts';

/** Status fields that, once written, must stay until the host goes (a restart must not drop them). */
const STICKY_FIELDS: readonly string[] = [
  'provisioning.ID', 'hardware.cpu.arch', 'hardware.nics', 'goodCredentials.credentials.name', 'goodCredentials.credentialsVersion',
  'operationHistory.register.start', 'operationHistory.inspect.end', 'lastUpdated', 'operationalStatus',
];

function fieldAt(object: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), object);
}

interface WatchedHost {
  metadata: { name: string; deletionTimestamp?: string };
  status?: Record<string, unknown>;
}

/**
 * Reads the namespace's hosts over and over while faults happen and records every sticky status
 * field that was there and then was not (or changed its provisioning ID) before the host was
 * being deleted.
 */
export class StatusWatch extends PeriodicSampler {
  readonly #kubectl: Kubectl;
  readonly #namespace: string;
  readonly #seen = new Map<string, Map<string, string>>();
  readonly losses: string[] = [];

  constructor(options: { kubectl: Kubectl; namespace: string }) {
    super();
    this.#kubectl = options.kubectl;
    this.#namespace = options.namespace;
  }

  protected async read(): Promise<void> {
    const { items } = await this.#kubectl.json<{ items: WatchedHost[] }>(['get', 'bmh', '-n', this.#namespace]);
    for (const host of items) {
      if (host.metadata.deletionTimestamp) continue;
      const seen = this.#seen.get(host.metadata.name) ?? new Map<string, string>();
      this.#seen.set(host.metadata.name, seen);
      for (const path of STICKY_FIELDS) {
        const value = fieldAt(host.status, path);
        const text = value === undefined || value === '' ? undefined : JSON.stringify(value);
        const before = seen.get(path);
        if (before !== undefined && text === undefined) this.losses.push(`${host.metadata.name}: status.${path} lost (was ${before})`);
        else if (before !== undefined && path === 'provisioning.ID' && text !== before) this.losses.push(`${host.metadata.name}: provisioning.ID ${before} -> ${text}`);
        if (text !== undefined) seen.set(path, text);
      }
    }
  }
}
