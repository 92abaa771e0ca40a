// Nodes read recently, by UUID and by name, so one reconcile reads a node once (BMO's cachedNode).
import type { Node, PowerTarget } from '../../../ironic-client/index.ts';
import type { Clock } from '../../runtime/clock.ts';
import { bmcProblemOf } from './bmc-problem.ts';
import type { BmcProblem, NodeRead } from '../provisioner.ts';
import { SettledChanges } from './settled-changes.ts';
import type { ListedNode } from './settled-changes.ts';
import { TtlCache } from './ttl-cache.ts';

export class NodeCache {
  readonly #nodes: TtlCache<Node>;
  /** Name to UUID, so a lookup by name finds an entry stored by UUID; expires with the node. */
  readonly #uuidsByName: TtlCache<string>;
  /** The last `health` seen per node UUID and name: kept past the TTL and writes, dropped with the node. */
  readonly #health = new Map<string, string | null | undefined>();
  /** Likewise, what the node last said about its BMC not answering. */
  readonly #bmcProblems = new Map<string, BmcProblem | undefined>();

  /** Per node UUID, the digest of the node as last read and when: kept past the TTL and writes, dropped with the node. */
  readonly #lastReads = new Map<string, NodeRead>();
  /** Per node UUID, when it was last read in full (a GET, or a write's answer). */
  readonly #fullReads = new Map<string, number>();
  readonly #settledChanges: SettledChanges;

  /** Told of every node read from Ironic. */
  readonly #onRead: (node: Node) => void;
  readonly #digest: (node: Node) => string;
  readonly #clock: Clock;

  constructor(options: {
    clock: Clock;
    ttlMs: number;
    /** How old a full read may be for a change's end in the sweep's list to stand in for a read; 0 never. */
    settledCopyMaxAgeMs?: number;
    onRead?: (node: Node) => void;
    digest?: (node: Node) => string;
  }) {
    this.#nodes = new TtlCache(options);
    this.#settledChanges = new SettledChanges({ clock: options.clock, maxAgeMs: options.settledCopyMaxAgeMs ?? 0 });
    this.#uuidsByName = new TtlCache(options);
    this.#onRead = options.onRead ?? (() => {});
    this.#digest = options.digest ?? (() => '');
    this.#clock = options.clock;
  }

  get(ident: string): Node | undefined {
    return this.#nodes.get(this.#uuidsByName.get(ident) ?? ident);
  }

  /** A node read in full from Ironic. */
  remember(node: Node): void {
    this.#fullReads.set(node.uuid, this.#clock.now());
    this.#settledChanges.clear(node.uuid);
    this.#store(node);
  }

  /**
   * The node after a change this process asked for, when the sweep's list has shown it ended
   * (settled-changes.ts), once; it is then cached as a read would be.
   */
  takeSettled(ident: string): Node | undefined {
    const node = this.#settledChanges.take(ident);
    if (node !== undefined) this.#store(node);
    return node;
  }

  /** Ironic accepted a power change of the node: the sweep's list shows it running, then ended. */
  powerChangeAccepted(node: Node, target: PowerTarget): void {
    const running = this.#settledChanges.powerAccepted(node, target, this.#lastFullRead(node.uuid));
    this.recordExpected(running);
  }

  /**
   * Ironic accepted provision `target`; `running` is the node as the sweep's list shows it while
   * the operation runs, so that look wakes no one and, for an operation whose end is known, its
   * end stands in for the next read.
   */
  provisionChangeAccepted(running: Node, target: string): void {
    this.#settledChanges.provisionAccepted(running, target, this.#lastFullRead(running.uuid));
    this.recordExpected(running);
  }

  #lastFullRead(uuid: string): number {
    return this.#fullReads.get(uuid) ?? Number.NEGATIVE_INFINITY;
  }

  /** The node as the sweep's list (started at `listStartedAtMs`) shows it. */
  listed(node: ListedNode, listStartedAtMs: number): void {
    this.#settledChanges.listed(node, listStartedAtMs);
  }

  #store(node: Node): void {
    this.#onRead(node);
    if (node.name) this.#uuidsByName.set(node.name, node.uuid);
    this.#nodes.set(node.uuid, node);
    this.#lastReads.set(node.uuid, { digest: this.#digest(node), atMs: this.#clock.now() });
    this.#health.set(node.uuid, node.health);
    if (node.name) this.#health.set(node.name, node.health);
    const problem = bmcProblemOf(node);
    this.#bmcProblems.set(node.uuid, problem);
    if (node.name) this.#bmcProblems.set(node.name, problem);
  }

  /** Why the node's BMC fails Ironic, as last read (by UUID or name); undefined when it works or was never read. */
  lastBmcProblem(ident: string): BmcProblem | undefined {
    return this.#bmcProblems.get(ident);
  }

  /** The node's digest (node-digests.ts) as last read from Ironic, and when; undefined when never read. */
  lastRead(uuid: string): NodeRead | undefined {
    return this.#lastReads.get(uuid);
  }

  /** The health last read on the node (by UUID or name); undefined when never read or not reported. */
  lastHealth(ident: string): string | undefined {
    return this.#health.get(ident) ?? undefined;
  }

  /**
   * The node as a request this process made leaves it (an operation under way): the node sweep
   * compares its looks with this as with a read, so the request's own effect wakes no host.
   */
  recordExpected(node: Node): void {
    this.#lastReads.set(node.uuid, { digest: this.#digest(node), atMs: this.#clock.now() });
  }

  /** The node is gone from Ironic: nothing about it is kept. */
  drop(node: Pick<Node, 'uuid' | 'name'>): void {
    this.forget(node);
    this.#lastReads.delete(node.uuid);
    this.#fullReads.delete(node.uuid);
    this.#health.delete(node.uuid);
    this.#bmcProblems.delete(node.uuid);
    if (node.name) {
      this.#health.delete(node.name);
      this.#bmcProblems.delete(node.name);
    }
  }

  /** After any write: the next read goes to Ironic. */
  forget(node: Pick<Node, 'uuid' | 'name'>): void {
    this.#settledChanges.clear(node.uuid);
    this.#nodes.delete(node.uuid);
    if (node.name) this.#uuidsByName.delete(node.name);
  }
}
