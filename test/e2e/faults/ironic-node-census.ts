import { RawIronic } from '../../support/raw-ironic.ts';
import { PeriodicSampler } from './periodic-sampler.ts';

interface CensusNode {
  uuid: string;
  name: string | null;
  driver_info?: { redfish_system_id?: string };
}

/**
 * Polls Ironic's node list while faults happen and remembers the most nodes it ever saw for one
 * host name or one emulated server: more than one means an operator restart registered a host
 * a second time.
 */
export class IronicNodeCensus extends PeriodicSampler {
  readonly #ironic: RawIronic;
  readonly #namePrefix: string;
  readonly #systemIds: ReadonlySet<string>;
  readonly #mostPerName = new Map<string, number>();
  readonly #mostPerSystem = new Map<string, number>();

  constructor(options: { ironicUrl: string; namespace: string; systemIds: readonly string[] }) {
    super();
    this.#ironic = new RawIronic(options.ironicUrl);
    this.#namePrefix = `${options.namespace}~`;
    this.#systemIds = new Set(options.systemIds);
  }

  protected async read(): Promise<void> {
    const { nodes } = await this.#ironic.request<{ nodes: CensusNode[] }>('GET', '/v1/nodes?fields=uuid,name,driver_info');
    const perName = new Map<string, number>();
    const perSystem = new Map<string, number>();
    for (const node of nodes) {
      if (node.name?.startsWith(this.#namePrefix)) perName.set(node.name, (perName.get(node.name) ?? 0) + 1);
      const system = node.driver_info?.redfish_system_id?.split('/').at(-1);
      if (system && this.#systemIds.has(system)) perSystem.set(system, (perSystem.get(system) ?? 0) + 1);
    }
    for (const [name, count] of perName) this.#mostPerName.set(name, Math.max(count, this.#mostPerName.get(name) ?? 0));
    for (const [system, count] of perSystem) this.#mostPerSystem.set(system, Math.max(count, this.#mostPerSystem.get(system) ?? 0));
  }


  /** Host names or servers seen with more than one node at once, and how many. */
  duplicates(): string[] {
    return [...this.#mostPerName, ...this.#mostPerSystem].filter(([, count]) => count > 1).map(([key, count]) => `${key}: ${count} nodes`);
  }

  /** Host names seen registered at least once. */
  namesSeen(): string[] {
    return [...this.#mostPerName.keys()];
  }
}
