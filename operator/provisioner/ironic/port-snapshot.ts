// Which MACs each node has ports for, by one list of every port that all hosts share. A host
// re-checks its node's ports once its record of them expires (`portCacheTtlMs`), and hosts that
// registered together come due together: at 500 hosts, one request per host that a worker waits
// on while Ironic is busiest. One list begun at most `maxAgeMs` ago answers them all; a port it
// misses (made after it began) is refused a twin by Ironic, and that conflict is explained as ours.
import type { Clock } from '../../runtime/clock.ts';

export interface ListedPort {
  address: string;
  node_uuid: string;
}

type MacsByNode = ReadonlyMap<string, ReadonlySet<string>>;

const NO_MACS: ReadonlySet<string> = new Set();

export class PortSnapshot {
  readonly #clock: Clock;
  readonly #maxAgeMs: number;
  readonly #listPorts: () => Promise<readonly ListedPort[]>;
  #latest: { startedAtMs: number; macsByNode: MacsByNode } | undefined;
  #inFlight: Promise<MacsByNode> | undefined;

  constructor(options: { clock: Clock; maxAgeMs: number; listPorts: () => Promise<readonly ListedPort[]> }) {
    this.#clock = options.clock;
    this.#maxAgeMs = options.maxAgeMs;
    this.#listPorts = options.listPorts;
  }

  /** The node's MACs (lower case) by a list begun at most `maxAgeMs` ago: the last one, one on its way, or a new one. */
  async macsOf(nodeUuid: string): Promise<ReadonlySet<string>> {
    return (await this.#current()).get(nodeUuid) ?? NO_MACS;
  }

  #current(): Promise<MacsByNode> {
    const latest = this.#latest;
    if (latest !== undefined && this.#clock.now() - latest.startedAtMs <= this.#maxAgeMs) return Promise.resolve(latest.macsByNode);
    // A stale list is not kept: at 10,000 hosts it is every port's address.
    this.#latest = undefined;
    this.#inFlight ??= this.#list();
    return this.#inFlight;
  }

  async #list(): Promise<MacsByNode> {
    const startedAtMs = this.#clock.now();
    try {
      const macsByNode = new Map<string, Set<string>>();
      for (const port of await this.#listPorts()) {
        let macs = macsByNode.get(port.node_uuid);
        if (macs === undefined) macsByNode.set(port.node_uuid, (macs = new Set()));
        macs.add(port.address.toLowerCase());
      }
      this.#latest = { startedAtMs, macsByNode };
      return macsByNode;
    } finally {
      this.#inFlight = undefined;
    }
  }
}
