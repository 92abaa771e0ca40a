// Power changes: PUT /v1/nodes/{node}/states/power.
import type { PowerTarget } from '../types.ts';
import type { ResourceContext } from './context.ts';

export interface PowerStateOptions {
  target: PowerTarget;
  /** Seconds Ironic waits for the change, e.g. 180 for a soft power off (BMO). */
  timeoutSeconds?: number;
}

export interface PowerOperations {
  /** Ironic answers 202; 400 while cleaning, or when soft power off is unsupported. */
  setPowerState(nodeIdent: string, options: PowerStateOptions): Promise<void>;
}

export function powerOperations({ transport }: ResourceContext): PowerOperations {
  return {
    async setPowerState(nodeIdent, options) {
      if (options.timeoutSeconds !== undefined && !(Number.isInteger(options.timeoutSeconds) && options.timeoutSeconds >= 1)) {
        throw new RangeError(`power timeout must be a positive whole number of seconds, got ${options.timeoutSeconds}`);
      }
      await transport.call('put', '/v1/nodes/{node_ident}/states/power', {
        path: { node_ident: nodeIdent },
        body: { target: options.target, ...(options.timeoutSeconds !== undefined ? { timeout: options.timeoutSeconds } : {}) },
      });
    },
  };
}
