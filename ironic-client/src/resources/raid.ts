// Target RAID configuration: PUT /v1/nodes/{node}/states/raid; clean steps apply it later.
import type { RaidConfig } from '../types.ts';
import type { ResourceContext } from './context.ts';

export interface RaidOperations {
  /** Stores the target configuration; `{}` clears it. */
  setTargetRaidConfig(nodeIdent: string, config: RaidConfig): Promise<void>;
}

export function raidOperations({ transport }: ResourceContext): RaidOperations {
  return {
    async setTargetRaidConfig(nodeIdent, config) {
      await transport.call('put', '/v1/nodes/{node_ident}/states/raid', { path: { node_ident: nodeIdent }, body: config });
    },
  };
}
