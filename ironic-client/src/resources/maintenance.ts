// Maintenance mode: PUT/DELETE /v1/nodes/{node}/maintenance.
import type { ResourceContext } from './context.ts';

export interface MaintenanceOperations {
  setMaintenance(nodeIdent: string, options?: { reason?: string }): Promise<void>;
  unsetMaintenance(nodeIdent: string): Promise<void>;
}

export function maintenanceOperations({ transport }: ResourceContext): MaintenanceOperations {
  return {
    async setMaintenance(nodeIdent, options = {}) {
      await transport.call('put', '/v1/nodes/{node_ident}/maintenance', {
        path: { node_ident: nodeIdent },
        body: options.reason !== undefined ? { reason: options.reason } : {},
      });
    },
    async unsetMaintenance(nodeIdent) {
      await transport.call('delete', '/v1/nodes/{node_ident}/maintenance', { path: { node_ident: nodeIdent } });
    },
  };
}
