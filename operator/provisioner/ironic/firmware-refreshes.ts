// Which of Ironic's cached copies of a node's firmware (BIOS settings, firmware components) an
// operation this process asked for can have given new contents, counted when the operation is seen
// to end, so the firmware controllers read only then (conductor/utils.py node_update_cache: verify.py,
// cleaning.py at the start and end of cleaning, servicing.py; inspection.py caches the components
// only; deploying caches nothing).
import type { Node } from '../../../ironic-client/index.ts';
import type { FirmwareCopy, FirmwareRefreshes } from '../provisioner.ts';

const BOTH: readonly FirmwareCopy[] = ['bios', 'firmware'];

/**
 * What a provision-state change, asked of `node`, can change in the copies once it ends: the
 * first copies (verify out of enroll; inspection, the components), and whatever the steps of a
 * manual cleaning or servicing set. Automated cleaning (provide, undeploy, deleted) refreshes both
 * copies too, but runs no BIOS or firmware step (their priority is 0), so they come back as they
 * were: a change made at the BMC behind everyone's back is left to the slow resync, as it is
 * between operations.
 */
export function copiesChangedBy(node: Pick<Node, 'provision_state'>, target: string): readonly FirmwareCopy[] {
  switch (target) {
    case 'manage':
      // Only out of enroll does manage verify the BMC.
      return node.provision_state === 'enroll' ? BOTH : [];
    case 'inspect':
      return ['firmware'];
    case 'clean':
    case 'service':
      return BOTH;
    default:
      return [];
  }
}

type NodeProgress = Pick<Node, 'uuid' | 'provision_state' | 'target_provision_state' | 'provision_updated_at'>;

interface Pending {
  copies: Set<FirmwareCopy>;
  /** The node as it was asked: the operation has ended once it is at rest and no longer so. */
  state: string | null;
  updatedAt: string | null;
  seenBusy: boolean;
}

function isBusy(node: NodeProgress): boolean {
  return Boolean(node.target_provision_state) && !(node.provision_state ?? '').endsWith('failed');
}

export class FirmwareRefreshTracker {
  /** Shared by all nodes, so a new node never repeats an old node's number. */
  #sequence = 0;
  readonly #pending = new Map<string, Pending>();
  readonly #finished = new Map<string, FirmwareRefreshes>();

  /** Ironic accepted a provision-state change of the node. */
  requested(node: Pick<Node, 'uuid' | 'provision_state' | 'provision_updated_at'>, target: string): void {
    const copies = copiesChangedBy(node, target);
    if (copies.length === 0) return;
    const earlier = this.#pending.get(node.uuid)?.copies ?? [];
    this.#pending.set(node.uuid, {
      copies: new Set([...earlier, ...copies]),
      state: node.provision_state ?? null,
      updatedAt: node.provision_updated_at ?? null,
      seenBusy: false,
    });
  }

  /** Every node read: an operation asked for has ended when the node rests in another state or at another time than when it was asked. */
  observed(node: NodeProgress): void {
    const pending = this.#pending.get(node.uuid);
    if (pending === undefined) return;
    if (isBusy(node)) {
      pending.seenBusy = true;
      return;
    }
    const moved = pending.seenBusy || (node.provision_state ?? null) !== pending.state || (node.provision_updated_at ?? null) !== pending.updatedAt;
    if (!moved) return;
    this.#pending.delete(node.uuid);
    const sequence = ++this.#sequence;
    const finished = { ...this.#finished.get(node.uuid) };
    for (const copy of pending.copies) finished[copy] = sequence;
    this.#finished.set(node.uuid, finished);
  }

  /** Per copy, the number of the last refresh seen to end (none if never seen), and the copies an operation still under way will refresh. */
  refreshes(nodeUuid: string): FirmwareRefreshes {
    const pending = this.#pending.get(nodeUuid);
    return { ...this.#finished.get(nodeUuid), ...(pending ? { pending: [...pending.copies] } : {}) };
  }

  /** The node is gone from Ironic. */
  drop(nodeUuid: string): void {
    this.#pending.delete(nodeUuid);
    this.#finished.delete(nodeUuid);
  }
}
