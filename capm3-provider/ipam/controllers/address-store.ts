import type { KubeObject, ResourceClient } from '../../../operator/runtime/index.ts';
import { isAlreadyExists, isNotFound, removeFinalizer } from '../../../operator/runtime/index.ts';
import type { ClaimKind, HeldAddress } from './claim-kinds.ts';
import { CLAIM_KINDS } from './claim-kinds.ts';

/**
 * The address objects of both API groups, read live from the API server (never from a cache:
 * another process may have just taken an address) and written with the name as the lock.
 */
export class AddressStore {
  readonly #clients: ReadonlyMap<ClaimKind, ResourceClient<KubeObject>>;

  constructor(clients: ReadonlyMap<ClaimKind, ResourceClient<KubeObject>>) {
    this.#clients = clients;
  }

  client(kind: ClaimKind): ResourceClient<KubeObject> {
    const client = this.#clients.get(kind);
    if (!client) throw new Error(`no client for ${kind.addressResource.kind}.${kind.addressResource.group}`);
    return client;
  }

  /** Every address object of either group that names this pool. */
  async heldBy(namespace: string, poolName: string, signal: AbortSignal): Promise<HeldAddress[]> {
    const lists = await Promise.all(CLAIM_KINDS.map(async (kind) => {
      const list = await this.client(kind).list({ namespace, signal });
      return list.items.map((item) => kind.readAddress(item)).filter((held): held is HeldAddress => held !== undefined);
    }));
    return lists.flat().filter((held) => held.poolName === poolName);
  }

  /** Creates the address object; undefined when the name (the address) is taken already. */
  async create(kind: ClaimKind, object: KubeObject, signal: AbortSignal): Promise<HeldAddress | undefined> {
    try {
      const created = await this.client(kind).create(object, { signal });
      return kind.readAddress(created);
    } catch (error) {
      if (isAlreadyExists(error)) return undefined;
      throw error;
    }
  }

  async get(kind: ClaimKind, namespace: string, name: string, signal: AbortSignal): Promise<HeldAddress | undefined> {
    try {
      return kind.readAddress(await this.client(kind).get({ namespace, name }, { signal }));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Drops our finalizer and deletes the object; gone already is fine. */
  async release(held: HeldAddress, signal: AbortSignal): Promise<void> {
    const client = this.client(held.kind);
    await removeFinalizer(client, held.object, held.kind.addressFinalizer, { signal });
    if (held.deleting) return;
    try {
      await client.delete({ namespace: held.object.metadata.namespace, name: held.name }, { signal });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}

