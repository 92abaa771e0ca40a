// Drivers: GET /v1/drivers. BMO uses it as a conductor-alive check (empty means no conductor).
import { checkContract, driverCollectionContract } from '../contract.ts';
import type { Driver } from '../types.ts';
import type { ResourceContext } from './context.ts';

export interface DriverOperations {
  list(options?: { detail?: boolean; type?: 'classic' | 'dynamic' }): Promise<Driver[]>;
}

export function driverOperations({ transport }: ResourceContext): DriverOperations {
  return {
    async list(options = {}) {
      const result = await transport.call('get', '/v1/drivers', { query: { detail: options.detail || undefined, type: options.type } });
      return checkContract<{ drivers: Driver[] }>(driverCollectionContract, result.data, result.request).drivers;
    },
  };
}
