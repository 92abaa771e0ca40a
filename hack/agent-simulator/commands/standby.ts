import { agentErrors } from '../agent-errors.ts';
import { validateImageInfo } from '../image-info.ts';
import { cacheImage, prepareImage } from './image-write.ts';
import type { Extension } from './types.ts';

export const standbyExtension: Extension = {
  prepare_image: {
    mode: 'async',
    validate: (agent, params) => void validateImageInfo(params.image_info, agent.md5Allowed),
    run: (agent, params) => prepareImage(agent, params.image_info, params.configdrive),
  },
  cache_image: {
    mode: 'async',
    validate: (agent, params) => void validateImageInfo(params.image_info, agent.md5Allowed),
    run: (agent, params) => cacheImage(agent, params.image_info),
  },
  get_partition_uuids: {
    mode: 'sync',
    // undefined means no image was written in this boot; IPA answers {} then too.
    run: (agent) => agent.partitionUuids ?? {},
  },
  sync: { mode: 'sync', run: () => null },
  power_off: {
    mode: 'async',
    // The ramdisk runs `poweroff`: the OS stops at once, the BMC reports the power off a little later.
    run: async (agent) => {
      await agent.services.power.off();
      agent.shutdownAfterReply('halt');
      return null;
    },
  },
  run_image: {
    mode: 'async',
    run: async (agent) => {
      await agent.services.power.restart();
      agent.shutdownAfterReply('halt');
      return null;
    },
  },
  execute_bootc_install: {
    mode: 'async',
    run: () => {
      throw agentErrors.deployment('bootc installs are not simulated');
    },
  },
};
