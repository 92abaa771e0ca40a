import { asRecord, type CachedNode, type Extension } from './types.ts';

export const pollExtension: Extension = {
  get_hardware_info: { mode: 'sync', run: (agent) => agent.services.inventory },
  set_node_info: {
    mode: 'sync',
    run: (agent, params) => {
      const node = asRecord(params.node_info);
      if (node !== undefined && typeof node.uuid === 'string') agent.node = node as CachedNode;
      return null;
    },
  },
};
