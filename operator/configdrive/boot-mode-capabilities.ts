export type BootMode = 'UEFI' | 'UEFISecureBoot' | 'legacy';

const NODE_CAPABILITIES: Record<BootMode, string> = {
  UEFI: 'boot_mode:uefi',
  UEFISecureBoot: 'boot_mode:uefi,secure_boot:true',
  legacy: 'boot_mode:bios',
};

/**
 * Ironic node `properties.capabilities` (a comma-separated string). Capabilities found by
 * inspection are kept; only the boot mode and secure boot entries are replaced. A string that
 * already says what is wanted is returned as it is, in its own order: inspection puts the boot
 * mode first, and reordering it would cost a PATCH that changes nothing.
 */
export function nodeCapabilities(options: { bootMode: BootMode; existing?: unknown }): string {
  const wanted = NODE_CAPABILITIES[options.bootMode];
  if (typeof options.existing !== 'string' || options.existing === '') return wanted;
  const items = options.existing.split(',');
  const isBootEntry = (item: string) => item.startsWith('boot_mode:') || item.startsWith('secure_boot:');
  const present = items.filter(isBootEntry);
  const wantedItems = wanted.split(',');
  if (present.length === wantedItems.length && wantedItems.every((item) => present.includes(item))) return options.existing;
  return [...items.filter((item) => !isBootEntry(item)), wanted].join(',');
}

/** `instance_info.capabilities`: a JSON map, where only secure boot needs saying. */
export function instanceCapabilities(bootMode: BootMode): Record<string, string> {
  return bootMode === 'UEFISecureBoot' ? { secure_boot: 'true' } : {};
}
