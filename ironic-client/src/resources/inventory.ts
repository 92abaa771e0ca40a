// Inspection data: GET /v1/nodes/{node}/inventory (404 until an inspection stored some).
import { checkContract, inventoryContract } from '../contract.ts';
import type { NodeInventory } from '../types.ts';
import type { ResourceContext } from './context.ts';

export interface InventoryOperations {
  /** Inventory and plugin data; throws IronicNotFoundError when none is recorded. */
  getInventory(nodeIdent: string): Promise<NodeInventory>;
}

export function inventoryOperations({ transport }: ResourceContext): InventoryOperations {
  return {
    async getInventory(nodeIdent) {
      const result = await transport.call('get', '/v1/nodes/{node_ident}/inventory', { path: { node_ident: nodeIdent } });
      return checkContract<NodeInventory>(inventoryContract, result.data, result.request);
    },
  };
}
