import { z } from 'zod';

/** Firmware boot method; BMO treats an unset `spec.bootMode` as UEFI. */
export const BOOT_MODES = ['UEFI', 'UEFISecureBoot', 'legacy'] as const;
export type BootMode = (typeof BOOT_MODES)[number];
export const DEFAULT_BOOT_MODE: BootMode = 'UEFI';
export const bootModeSchema = z.enum(BOOT_MODES);

/** `metadata` lets Ironic clean disks around (de)provisioning; `disabled` skips it. */
export const AUTOMATED_CLEANING_MODES = ['metadata', 'disabled'] as const;
export type AutomatedCleaningMode = (typeof AUTOMATED_CLEANING_MODES)[number];
export const DEFAULT_AUTOMATED_CLEANING_MODE: AutomatedCleaningMode = 'metadata';
export const automatedCleaningModeSchema = z.enum(AUTOMATED_CLEANING_MODES);

/** `fast` inspects out of band through the BMC; `agent` boots the inspection ramdisk. */
export const INSPECTION_MODES = ['disabled', 'agent', 'fast'] as const;
export type InspectionMode = (typeof INSPECTION_MODES)[number];
export const inspectionModeSchema = z.enum(INSPECTION_MODES);
