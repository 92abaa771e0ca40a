import { z } from 'zod';
import { rootDeviceHintsSchema } from './root-device-hints.ts';

export const HARDWARE_RAID_LEVELS = ['0', '1', '2', '5', '6', '1+0', '5+0', '6+0'] as const;
export const SOFTWARE_RAID_LEVELS = ['0', '1', '1+0'] as const;

export const hardwareRaidVolumeSchema = z.object({
  sizeGibibytes: z.int().min(0).optional().describe('Size in GiB; unset or 0 uses the whole capacity.'),
  level: z.enum(HARDWARE_RAID_LEVELS).describe('RAID level; drivers may support only some.'),
  name: z.string().max(64).optional().describe('Volume name, unique on the host; generated when unset.'),
  rotational: z.boolean().optional().describe('Use only spinning (true) or only solid-state (false) disks.'),
  numberOfPhysicalDisks: z.int().min(1).optional().describe('How many disks to use; defaults to the minimum for the level.'),
  controller: z.string().optional().describe('RAID controller to use.'),
  physicalDisks: z.array(z.string()).optional().describe('Controller-specific names of the disks to use.'),
});

export const softwareRaidVolumeSchema = z.object({
  rootVolume: z.boolean().default(false).describe('Install onto this volume; at most one volume may set it.'),
  sizeGibibytes: z.int().min(0).optional().describe('Size in GiB; unset or 0 uses the whole capacity.'),
  level: z.enum(SOFTWARE_RAID_LEVELS).describe('RAID level.'),
  physicalDisks: z.array(rootDeviceHintsSchema).min(2).optional().describe('Hints selecting the member disks, at least two.'),
});

/**
 * Applied while preparing. `null`/unset leaves the current layout alone; `[]` for hardware
 * volumes clears it. Software RAID allows at most two volumes, the first being RAID-1.
 */
export const raidConfigSchema = z.object({
  hardwareRAIDVolumes: z.array(hardwareRaidVolumeSchema).nullable().optional()
    .describe('Hardware RAID volumes; the first is the root volume unless root device hints say otherwise.'),
  softwareRAIDVolumes: z.array(softwareRaidVolumeSchema).max(2).nullable().optional()
    .describe('Software RAID volumes; ignored when hardware volumes are set.'),
});

export type HardwareRaidVolume = z.infer<typeof hardwareRaidVolumeSchema>;
export type SoftwareRaidVolume = z.infer<typeof softwareRaidVolumeSchema>;
export type RaidConfig = z.infer<typeof raidConfigSchema>;
