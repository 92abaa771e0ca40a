import type { Extension } from './types.ts';

export const rescueExtension: Extension = {
  // IPA sets the rescue password and exits, leaving the rescue OS running.
  finalize_rescue: {
    mode: 'sync',
    run: (agent) => {
      agent.shutdownAfterReply('rescue');
      return null;
    },
  },
};
