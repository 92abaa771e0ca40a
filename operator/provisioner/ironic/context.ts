// What every verb works with: the compiled config, the client, delays and the shared caches.
import type { IronicClient } from '../../../ironic-client/index.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { HostIdentity } from '../provisioner.ts';
import { createDelays } from './delays.ts';
import { FirmwareRefreshTracker } from './firmware-refreshes.ts';
import type { Delays } from './delays.ts';
import { NodeCache } from './node-cache.ts';
import { digestOf, watchedFields } from './node-digests.ts';
import { NodeNameSnapshot } from './node-name-snapshot.ts';
import type { IronicProvisionerConfig } from './options.ts';
import { PortSnapshot } from './port-snapshot.ts';
import { SentCredentials } from './sent-credentials.ts';
import { TtlCache } from './ttl-cache.ts';

export interface ProvisionerContext {
  config: IronicProvisionerConfig;
  client: IronicClient;
  delays: Delays;
  nodes: NodeCache;
  /** The node names the sweep's last list saw, which answer a new host's look-ups by name. */
  nodeNames: NodeNameSnapshot;
  /** Node UUID to the MACs known to have ports on it. */
  knownPorts: TtlCache<ReadonlySet<string>>;
  /** Every node's port MACs by one shared list, for records missing or expired; none when records are not kept. */
  portSnapshot: PortSnapshot | undefined;
  /** Which operations asked of a node refreshed Ironic's copies of its firmware, once they end. */
  firmwareRefreshes: FirmwareRefreshTracker;
  /**
   * Nodes with a soft power off this operator asked for that has not been seen to end. Ironic's
   * power sync can clear the error of a timed-out one before the host looks (it finds the power
   * matching its record: still on), so the request ending with the node on is the failure.
   */
  softPowerOffs: Set<string>;
  /** The BMC access each node was last given, so a Secret whose version alone moved is not sent again. */
  sentCredentials: SentCredentials;
  log: Logger;
}

export function createContext(config: IronicProvisionerConfig): ProvisionerContext {
  const firmwareRefreshes = new FirmwareRefreshTracker();
  return {
    config,
    client: config.client,
    delays: createDelays(config),
    nodes: new NodeCache({
      clock: config.clock,
      ttlMs: config.nodeCacheTtlMs,
      settledCopyMaxAgeMs: config.settledCopyMaxAgeMs,
      onRead: (node) => firmwareRefreshes.observed(node),
      digest: (node) => digestOf(node, watchedFields(config.client)),
    }),
    // Two sweep intervals: a list that late means the sweep is at rest, and the hosts ask themselves.
    nodeNames: new NodeNameSnapshot({ clock: config.clock, maxAgeMs: 2 * config.poll.shortMs }),
    firmwareRefreshes,
    softPowerOffs: new Set(),
    sentCredentials: new SentCredentials(),
    knownPorts: new TtlCache({ clock: config.clock, ttlMs: config.portCacheTtlMs }),
    portSnapshot:
      config.portCacheTtlMs > 0
        ? new PortSnapshot({
            clock: config.clock,
            maxAgeMs: config.portCacheTtlMs / 10,
            listPorts: () => config.client.ports.listAll({ fields: ['address', 'node_uuid'] }),
          })
        : undefined,
    log: config.log,
  };
}

/** The same context with a logger naming the host, for one call. */
export function forHost(context: ProvisionerContext, host: HostIdentity, verb: string): ProvisionerContext {
  return { ...context, log: context.log.child({ host: `${host.namespace}/${host.name}`, verb }) };
}
