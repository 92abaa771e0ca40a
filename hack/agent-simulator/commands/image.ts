import type { Extension } from './types.ts';

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
