import { z } from 'zod';

/** How Ironic picks the disk to write the image to; every hint set must match. */
export const rootDeviceHintsSchema = z.object({
  deviceName: z.string().optional().describe('Exact Linux device name such as /dev/vda, or a /dev/disk/by-path/ link.'),
  hctl: z.string().optional().describe('Exact SCSI address such as 0:0:0:0.'),
  model: z.string().optional().describe('Substring of the device model.'),
  vendor: z.string().optional().describe('Substring of the device vendor.'),
  serialNumber: z.string().optional().describe('Exact device serial number.'),
  minSizeGigabytes: z.int().min(0).optional().describe('Smallest acceptable size in GB.'),
  wwn: z.string().optional().describe('Exact World Wide Name.'),
  wwnWithExtension: z.string().optional().describe('Exact WWN with vendor extension.'),
  wwnVendorExtension: z.string().optional().describe('Exact WWN vendor extension.'),
  rotational: z.boolean().optional().describe('true for spinning disks only, false for solid-state only.'),
});

export type RootDeviceHints = z.infer<typeof rootDeviceHintsSchema>;
