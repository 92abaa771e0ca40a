// Which BMC access (address, user, password) this process last gave Ironic for each node. BMO
// registers a host again whenever its credentials Secret gets a new resourceVersion, and sends
// the node's driver_info again with it; a label or owner reference on that Secret (CAPM3 adds
// and removes one on every claim and release) changes the version but not what Ironic has, so
// that PATCH is skipped. Only a digest is kept; a restart forgets it all, and the next
// registration with a new version sends the credentials once more.
import { createHash } from 'node:crypto';

export class SentCredentials {
  /** Node UUID to the digest of the access it was last given. */
  readonly #digests = new Map<string, string>();

  /** Ironic holds `access` for the node now (created with it, or patched to it). */
  record(nodeId: string, access: Readonly<Record<string, unknown>>): void {
    this.#digests.set(nodeId, digestOf(access));
  }

  /** Whether the node was last given exactly `access` by this process. */
  holds(nodeId: string, access: Readonly<Record<string, unknown>>): boolean {
    return this.#digests.get(nodeId) === digestOf(access);
  }

  forget(nodeId: string): void {
    this.#digests.delete(nodeId);
  }

  get size(): number {
    return this.#digests.size;
  }
}

function digestOf(access: Readonly<Record<string, unknown>>): string {
  const ordered = Object.keys(access).sort().map((key) => [key, access[key]]);
  return createHash('sha256').update(JSON.stringify(ordered)).digest('base64');
}
