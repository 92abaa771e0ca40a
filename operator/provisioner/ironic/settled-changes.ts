// A change this process asked for whose end the node sweep's list shows, and whose effects on
// the fields the list does not carry are known: then the node as read before the request plus
// what the list shows is the node, so the host's pass that confirms the change (BMO reads the
// node again there) costs no GET. A power change touches only listed fields (power, target, last
// error); manage, provide, deploy and undeploy are confirmed only when they end as asked.
import type { Node, PowerTarget } from '../../../ironic-client/index.ts';
import type { Clock } from '../../runtime/clock.ts';

/** Ironic's target_power_state while a change runs (its conductor's _calculate_target_state). */
export function targetPowerStateOf(target: PowerTarget): 'power on' | 'power off' {
  return target === 'power on' || target === 'rebooting' || target === 'soft rebooting' ? 'power on' : 'power off';
}

/** The fields the sweep's list carries that a copy takes over: those of `node-digests.ts`. */
export type ListedNode = Pick<Node, 'uuid'> & Partial<Node>;

/**
 * Provision-state requests whose successful end is confirmed from the list: the state they end
 * in, and what Ironic changes on the way that the list does not show. Verifying (manage) sets
 * the power state; cleaning (provide's, and undeploy's after its tear down) and deploying
 * rewrite only Ironic's internal info besides; tear down also empties the instance fields.
 * Inspection is left out: it rewrites properties.
 */
interface ProvisionEnd {
  provision_state: string;
  /** What Ironic changed by the end in fields the list does not carry. */
  effects?: Partial<Node>;
}

const PROVISION_ENDS: Readonly<Record<string, ProvisionEnd>> = {
  manage: { provision_state: 'manageable' },
  provide: { provision_state: 'available' },
  deploy: { provision_state: 'active' },
  undeploy: { provision_state: 'available', effects: { instance_info: {}, instance_uuid: null } },
};

interface Request {
  /** The node as it was when the change was asked for, as Ironic shows it while the change runs. */
  running: Node;
  /** When Ironic accepted the request: a list started later shows the change running or ended. */
  acceptedAtMs: number;
  /** When the node was last read in full; a copy never stands in for a read older than the limit. */
  fullReadAtMs: number;
  /** Whether the list shows the change still running. */
  runs: (listed: ListedNode) => boolean;
  /** For a provision change, the end the copy is for; a change that ended elsewhere is left to a read. */
  end?: ProvisionEnd;
}

export class SettledChanges {
  readonly #clock: Clock;
  readonly #maxAgeMs: number;
  readonly #requests = new Map<string, Request>();
  readonly #settled = new Map<string, { node: Node; fullReadAtMs: number }>();

  constructor(options: { clock: Clock; maxAgeMs: number }) {
    this.#clock = options.clock;
    this.#maxAgeMs = options.maxAgeMs;
  }

  /**
   * Ironic accepted power `target` for `node` (read in full at `fullReadAtMs`): by then it had
   * saved the change's target and cleared last_error. Returns the node as a list will show it running.
   */
  powerAccepted(node: Node, target: PowerTarget, fullReadAtMs: number): Node {
    const running: Node = { ...node, target_power_state: targetPowerStateOf(target), last_error: null, reservation: null };
    this.#track(running, { fullReadAtMs, runs: (listed) => Boolean(listed.target_power_state) });
    return running;
  }

  /**
   * Ironic accepted provision `target`; `running` is the node as the list shows it while the
   * operation runs (node-digests.ts). Only targets whose end is known are followed.
   */
  provisionAccepted(running: Node, target: string, fullReadAtMs: number): void {
    const end = PROVISION_ENDS[target];
    if (end === undefined) {
      this.clear(running.uuid);
      return;
    }
    this.#track({ ...running, reservation: null }, {
      fullReadAtMs,
      runs: (listed) => Boolean(listed.target_provision_state),
      end,
    });
  }

  #track(running: Node, request: Omit<Request, 'running' | 'acceptedAtMs'>): void {
    this.#settled.delete(running.uuid);
    if (this.#maxAgeMs > 0) this.#requests.set(running.uuid, { ...request, running, acceptedAtMs: this.#clock.now() });
  }

  /** A node as the sweep's list (started at `listStartedAtMs`) shows it. */
  listed(node: ListedNode, listStartedAtMs: number): void {
    const request = this.#requests.get(node.uuid);
    // A list begun before Ironic accepted the request may show the node as it was before it.
    if (request === undefined || listStartedAtMs < request.acceptedAtMs || request.runs(node)) return;
    this.#requests.delete(node.uuid);
    if (request.end !== undefined && node.provision_state !== request.end.provision_state) return;
    // A fault or maintenance comes with a reason the list does not carry: the host reads the node.
    if (node.fault || (node.maintenance !== undefined && node.maintenance !== request.running.maintenance)) return;
    this.#settled.set(node.uuid, {
      node: { ...request.running, ...request.end?.effects, ...node, name: request.running.name },
      fullReadAtMs: request.fullReadAtMs,
    });
  }

  /** The node after its change ended, once, while its last full read is young enough. */
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
