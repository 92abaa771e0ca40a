import { HOST_ANNOTATION } from '../../../capm3-provider/api/index.ts';
import type { Kubectl } from '../../support/kubectl.ts';
import { PeriodicSampler } from './periodic-sampler.ts';

interface CensusHost { metadata: { name: string }; spec: { consumerRef?: { kind?: string; name: string } } }
interface CensusMachine { metadata: { name: string; annotations?: Record<string, string> } }

/**
 * Reads hosts and Metal3Machines over and over while the provider is killed, recording every
 * moment a host had two claimants: two Metal3Machines naming it, or a consumerRef to one while
 * another names it.
 */
export class ClaimCensus extends PeriodicSampler {
  readonly #kubectl: Kubectl;
  readonly #namespace: string;
  readonly doubleClaims = new Set<string>();

  constructor(options: { kubectl: Kubectl; namespace: string }) {
    super();
    this.#kubectl = options.kubectl;
    this.#namespace = options.namespace;
  }

  protected async read(): Promise<void> {
    const [hosts, machines] = await Promise.all([
      this.#kubectl.json<{ items: CensusHost[] }>(['get', 'bmh', '-n', this.#namespace]),
      this.#kubectl.json<{ items: CensusMachine[] }>(['get', 'metal3machines.infrastructure.cluster.x-k8s.io', '-n', this.#namespace]),
    ]);
    for (const host of hosts.items) {
      const claimants = new Set(machines.items
        .filter((machine) => machine.metadata.annotations?.[HOST_ANNOTATION] === `${this.#namespace}/${host.metadata.name}`)
        .map((machine) => machine.metadata.name));
      if (host.spec.consumerRef?.kind === 'Metal3Machine') claimants.add(host.spec.consumerRef.name);
      if (claimants.size > 1) this.doubleClaims.add(`${host.metadata.name}: ${[...claimants].sort().join(' and ')}`);
    }
  }
}
