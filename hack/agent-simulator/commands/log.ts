import { systemLogsArchive } from '../log-archive.ts';
import type { Extension } from './types.ts';

/** log.collect_system_logs: what Ironic stores when it collects ramdisk logs. */
export const logExtension: Extension = {
  collect_system_logs: {
    mode: 'sync',
    run: (agent) => ({
      system_logs: systemLogsArchive(
        `ironic-python-agent (simulated) on ${agent.services.inventory.hostname}\n` +
          agent.commandHistory().map((name) => `ran ${name}\n`).join(''),
      ),
    }),
  },
};
