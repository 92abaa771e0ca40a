import { z } from 'zod';

const anchoredMacAddress = /^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$/;

export const hostNetworkAttachmentRefSchema = z.object({
  name: z.string().max(253).optional().describe('Name of the HostNetworkAttachment.'),
  namespace: z.string().max(63).optional().describe('Its namespace; the host namespace when unset.'),
});

export const switchPortSchema = z.object({
  switchID: z.string().regex(anchoredMacAddress).describe('Management MAC address of the switch.'),
  portID: z.string().describe('Port name in the switch configuration.'),
});

/** Switch-side configuration of one NIC, selected by `name` or `macAddress` (exactly one). */
export const networkInterfaceSchema = z.object({
  name: z.string().regex(/^[a-zA-Z0-9._-]+$/).optional().describe('Name of an inspected NIC; excludes macAddress.'),
  macAddress: z.string().regex(anchoredMacAddress).optional().describe('MAC of an inspected NIC; excludes name.'),
  hostNetworkAttachment: hostNetworkAttachmentRefSchema.optional().describe('Network attachment to configure on the port.'),
  switchPort: switchPortSchema.optional().describe('Switch port the NIC is cabled to; overrides LLDP data.'),
});

export type HostNetworkAttachmentRef = z.infer<typeof hostNetworkAttachmentRefSchema>;
export type SwitchPort = z.infer<typeof switchPortSchema>;
export type NetworkInterface = z.infer<typeof networkInterfaceSchema>;
