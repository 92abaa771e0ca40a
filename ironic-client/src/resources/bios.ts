// BIOS settings cached by Ironic: GET /v1/nodes/{node}/bios. Changes go through clean or service steps.
import { biosCollectionContract, checkContract } from '../contract.ts';
import type { BiosSetting } from '../types.ts';
import type { ResourceContext } from './context.ts';

export interface BiosOperations {
  /** With `detail`, each setting carries its registry entry (type, bounds, allowed values). */
  listBiosSettings(nodeIdent: string, options?: { detail?: boolean }): Promise<BiosSetting[]>;
}

export function biosOperations({ transport }: ResourceContext): BiosOperations {
  return {
    async listBiosSettings(nodeIdent, options = {}) {
      const result = await transport.call('get', '/v1/nodes/{node_ident}/bios', {
        path: { node_ident: nodeIdent },
        query: { detail: options.detail || undefined },
      });
      return checkContract<{ bios: BiosSetting[] }>(biosCollectionContract, result.data, result.request).bios;
    },
  };
}
