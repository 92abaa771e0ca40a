import { z } from 'zod';

/** Deprecated BIOS toggles: kept so old YAML still applies; nothing acts on them. */
export const firmwareConfigSchema = z.object({
  virtualizationEnabled: z.boolean().optional().describe('Hardware virtualization support.'),
  simultaneousMultithreadingEnabled: z.boolean().optional().describe('Simultaneous multithreading (hyper-threading).'),
  sriovEnabled: z.boolean().optional().describe('SR-IOV support.'),
});

export type FirmwareConfig = z.infer<typeof firmwareConfigSchema>;
