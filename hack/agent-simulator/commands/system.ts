import type { Extension } from './types.ts';

export const systemExtension: Extension = {
  // The agent stops serving and heartbeating; Ironic waits until it can no longer reach it.
  lockdown: {
    mode: 'sync',
    run: (agent) => {
      agent.shutdownAfterReply('lockdown');
      return null;
    },
  },
};
