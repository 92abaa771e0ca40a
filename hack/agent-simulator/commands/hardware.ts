import type { RamdiskAgent } from '../agent.ts';
import type { DiskWipeRecord } from '../records.ts';
import { osInstallDisk, usableDisks } from './disks.ts';
import { prepareImage } from './image-write.ts';
import { createSoftwareRaid, deleteSoftwareRaid } from './software-raid.ts';
import { CUSTOM_DEPLOY_STEPS } from './step-lists.ts';
import type { CommandParams } from './types.ts';

/** A step of the simulated GenericHardwareManager; `args` are the step's own arguments. */
type StepImplementation = (agent: RamdiskAgent, step: string, args: CommandParams) => Promise<unknown>;

function wipeDisks(method: (device: string) => DiskWipeRecord['method']): StepImplementation {
  return async (agent, step) => {
    const results: Record<string, null> = {};
    for (const disk of usableDisks(agent)) {
      agent.services.records.addDiskWipe(agent.services.systemUuid, {
        nodeUuid: agent.node?.uuid ?? null,
        step,
        device: disk.name,
        serial: disk.serial,
        method: method(disk.name),
      });
      agent.services.disk.wiped(disk.name);
      agent.services.logger.info('disk wiped', { systemUuid: agent.services.systemUuid, step, device: disk.name });
      results[disk.name] = null;
    }
    // erase_devices answers per device; the metadata/express variants answer nothing.
    return step === 'erase_devices' ? results : null;
  };
}

const nothingToDo: StepImplementation = async () => null;

/** The custom hardware manager's deploy step: recorded with the disk it installs to; no image is downloaded. */
const customDeploy: StepImplementation = async (agent, step, args) => {
  const { systemUuid, records, logger } = agent.services;
  const device = osInstallDisk(agent).name;
  records.addCustomDeployStep(systemUuid, { nodeUuid: agent.node?.uuid ?? null, step, args, device });
  logger.info('custom deploy step ran', { systemUuid, step, device });
  return null;
};

export const hardwareSteps: Readonly<Record<string, StepImplementation>> = {
  // IPA prefers NVMe format / ATA secure erase and falls back to shred; the simulated SATA disks use shred.
  erase_devices: wipeDisks((device) => (device.startsWith('/dev/nvme') ? 'nvme-format' : 'shred')),
  erase_devices_metadata: wipeDisks(() => 'metadata'),
  erase_devices_express: wipeDisks(() => 'express'),
  erase_pstore: nothingToDo,
  clean_uefi_nvram: nothingToDo,
  delete_configuration: deleteSoftwareRaid,
  create_configuration: createSoftwareRaid,
  apply_configuration: nothingToDo,
  burnin_cpu: nothingToDo,
  burnin_gpu: nothingToDo,
  burnin_disk: nothingToDo,
  burnin_memory: nothingToDo,
  burnin_network: nothingToDo,
  inject_files: nothingToDo,
  ...Object.fromEntries(CUSTOM_DEPLOY_STEPS.map((name) => [name, customDeploy])),
  write_image: async (agent, _step, args) => ({
    // IPA's write_image step waits for prepare_image and returns that command's result.
    result: `prepare_image: ${await prepareImage(agent, args.image_info, args.configdrive)}`,
  }),
};
