// A power change touches only fields the node sweep lists (power, target, last error), so once the
// list shows one ended, the node as read just before the request plus what the list shows is the
// node: the host's pass that confirms the change (BMO reads the node again there) costs no GET.
import type { Node, PowerTarget } from '../../../ironic-client/index.ts';
import type { Clock } from '../../runtime/clock.ts';

/** Ironic's target_power_state while a change runs (its conductor's _calculate_target_state). */
export function targetPowerStateOf(target: PowerTarget): 'power on' | 'power off' {
  return target === 'power on' || target === 'rebooting' || target === 'soft rebooting' ? 'power on' : 'power off';
}

/** The fields the sweep's list carries that a copy takes over: those of `node-digests.ts`. */
export type ListedNode = Pick<Node, 'uuid'> & Partial<Node>;

interface Request {
  /** The node as it was when the change was asked for, as Ironic shows it while the change runs. */
  running: Node;
  /** When Ironic accepted the request: a list started later shows the change running or ended. */
  acceptedAtMs: number;
  /** When the node was last read in full; a copy never stands in for a read older than the limit. */
  fullReadAtMs: number;
}

export class SettledPowerChanges {
  readonly #clock: Clock;
  readonly #maxAgeMs: number;
  readonly #requests = new Map<string, Request>();
  readonly #settled = new Map<string, { node: Node; fullReadAtMs: number }>();

  constructor(options: { clock: Clock; maxAgeMs: number }) {
    this.#clock = options.clock;
    this.#maxAgeMs = options.maxAgeMs;
  }

  /**
   * Ironic accepted `target` for `node` (read in full at `fullReadAtMs`): by then it had saved
   * the change's target and cleared last_error. Returns the node as a list will show it running.
   */
  accepted(node: Node, target: PowerTarget, fullReadAtMs: number): Node {
    const running: Node = { ...node, target_power_state: targetPowerStateOf(target), last_error: null, reservation: null };
    this.#settled.delete(node.uuid);
    if (this.#maxAgeMs > 0) this.#requests.set(node.uuid, { running, acceptedAtMs: this.#clock.now(), fullReadAtMs });
    return running;
  }

  /** A node as the sweep's list (started at `listStartedAtMs`) shows it. */
  listed(node: ListedNode, listStartedAtMs: number): void {
    const request = this.#requests.get(node.uuid);
    // A list begun before Ironic accepted the request may show the node as it was before it.
    if (request === undefined || listStartedAtMs < request.acceptedAtMs || node.target_power_state) return;
    this.#requests.delete(node.uuid);
    // A fault or maintenance comes with a reason the list does not carry: the host reads the node.
    if (node.fault || (node.maintenance !== undefined && node.maintenance !== request.running.maintenance)) return;
    this.#settled.set(node.uuid, { node: { ...request.running, ...node, name: request.running.name }, fullReadAtMs: request.fullReadAtMs });
  }

  /** The node after its power change ended, once, while its last full read is young enough. */
  take(uuid: string): Node | undefined {
    const settled = this.#settled.get(uuid);
    if (settled === undefined) return undefined;
    this.#settled.delete(uuid);
    return this.#clock.now() - settled.fullReadAtMs <= this.#maxAgeMs ? settled.node : undefined;
  }

  /** A write or a full read of the node supersedes whatever is kept for it. */
  clear(uuid: string): void {
    this.#requests.delete(uuid);
    this.#settled.delete(uuid);
  }
}
