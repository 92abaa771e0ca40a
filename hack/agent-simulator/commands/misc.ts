import { systemLogsArchive } from '../log-archive.ts';
import { asRecord, type CachedNode, type Extension } from './types.ts';

/** image.install_bootloader: nothing to install on simulated disks, but it takes the usual time. */
export const imageExtension: Extension = {
  install_bootloader: {
    mode: 'async',
    run: (agent, params) => {
      agent.services.logger.info('bootloader installed', {
        systemUuid: agent.services.systemUuid,
        rootUuid: params.root_uuid ?? null,
        efiSystemPartitionUuid: params.efi_system_part_uuid ?? null,
        targetBootMode: params.target_boot_mode ?? null,
      });
      return null;
    },
  },
};

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
