// The ramdisk side of Ironic: lookup, heartbeat and continue_inspection. The operator does not
// call these; the agent simulator and the test harness (posting inventories) do.
import { checkContract, lookupResultContract } from '../contract.ts';
import type { HeartbeatRequest, InspectionData, LookupResult } from '../types.ts';
import type { ResourceContext } from './context.ts';

export interface LookupOptions {
  /** MAC addresses of the machine's NICs. */
  addresses?: readonly string[];
  nodeUuid?: string;
}

export interface HeartbeatOptions {
  /** Where Ironic reaches the agent. */
  callbackUrl: string;
  /** The token from lookup. */
  agentToken: string;
  agentVersion?: string;
  agentVerifyCa?: string;
  agentStatus?: 'start' | 'end' | 'error';
  agentStatusMessage?: string;
}

export interface AgentOperations {
  /** Finds the node a booting agent runs on; 404 outside lookup-allowed states. */
  lookup(options: LookupOptions): Promise<LookupResult>;
  heartbeat(nodeIdent: string, options: HeartbeatOptions): Promise<void>;
  /** Posts inspection data; returns the node with a fresh agent token. */
  continueInspection(data: InspectionData, options?: { nodeUuid?: string }): Promise<LookupResult>;
}

export function agentOperations({ transport }: ResourceContext): AgentOperations {
  return {
    async lookup(options) {
      if (!options.nodeUuid && !options.addresses?.length) throw new TypeError('lookup needs addresses or a node UUID');
      const result = await transport.call('get', '/v1/lookup', {
        query: { addresses: options.addresses ? [...options.addresses] : undefined, node_uuid: options.nodeUuid },
      });
      return checkContract<LookupResult>(lookupResultContract, result.data, result.request);
    },
    async heartbeat(nodeIdent, options) {
      const body: HeartbeatRequest = { callback_url: options.callbackUrl, agent_token: options.agentToken };
      if (options.agentVersion !== undefined) body.agent_version = options.agentVersion;
      if (options.agentVerifyCa !== undefined) body.agent_verify_ca = options.agentVerifyCa;
      if (options.agentStatus !== undefined) body.agent_status = options.agentStatus;
      if (options.agentStatusMessage !== undefined) body.agent_status_message = options.agentStatusMessage;
      await transport.call('post', '/v1/heartbeat/{node_ident}', { path: { node_ident: nodeIdent }, body });
    },
    async continueInspection(data, options = {}) {
      const result = await transport.call('post', '/v1/continue_inspection', { query: { node_uuid: options.nodeUuid }, body: data });
      return checkContract<LookupResult>(lookupResultContract, result.data, result.request);
    },
  };
}
