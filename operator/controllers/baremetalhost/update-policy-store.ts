// BMO's acquireHostUpdatePolicy: the HostUpdatePolicy named after a host, read from the cache and
// given the host as a (non-controller) owner, so it goes when the host goes.
import { hostUpdatePolicySchema } from '../../api/hostupdatepolicy.ts';
import type { HostUpdatePolicySpec } from '../../api/hostupdatepolicy.ts';
import type { Informer } from '../../runtime/informer.ts';
import { isConflict } from '../../runtime/kube-errors.ts';
import { objectName } from '../../runtime/kube-object.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { setOwnerReference } from '../../runtime/object-references.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';

/** What the host controller needs of HostUpdatePolicies; UpdatePolicyStore is the Kubernetes implementation. */
export interface UpdatePolicyAccess {
  /** The host's policy spec (undefined without one), after making the host one of its owners. */
  acquire(host: KubeObject): Promise<HostUpdatePolicySpec | undefined>;
}

export class UpdatePolicyStore implements UpdatePolicyAccess {
  readonly #client: ResourceClient<KubeObject>;
  readonly #cache: Pick<Informer<KubeObject>, 'get'>;

  constructor(options: { client: ResourceClient<KubeObject>; cache: Pick<Informer<KubeObject>, 'get'> }) {
    this.#client = options.client;
    this.#cache = options.cache;
  }

  async acquire(host: KubeObject): Promise<HostUpdatePolicySpec | undefined> {
    const cached = this.#cache.get(objectName(host));
    if (!cached) return undefined;
    // The CRD's enum keeps bad values out; anything else the API server let in is treated as no policy.
    const policy = hostUpdatePolicySchema.safeParse(cached);
    if (!policy.success) return undefined;
    if (!cached.metadata.ownerReferences?.some((ref) => ref.uid === host.metadata.uid)) {
      try {
        await this.#client.replace(setOwnerReference(cached, host));
      } catch (error) {
        // The cache is behind our own write (or someone else's): the next pass looks again.
        if (!isConflict(error)) throw new Error(`failed setting owner reference on hostUpdatePolicy: ${(error as Error).message}`, { cause: error });
      }
    }
    return policy.data.spec;
  }
}
