export type BootMode = 'UEFI' | 'UEFISecureBoot' | 'legacy';

const NODE_CAPABILITIES: Record<BootMode, string> = {
  UEFI: 'boot_mode:uefi',
  UEFISecureBoot: 'boot_mode:uefi,secure_boot:true',
  legacy: 'boot_mode:bios',
};

/**
 * Ironic node `properties.capabilities` (a comma-separated string). Capabilities found by
 * inspection are kept; only the boot mode and secure boot entries are replaced.
 */
export function nodeCapabilities(options: { bootMode: BootMode; existing?: unknown }): string {
  const wanted = NODE_CAPABILITIES[options.bootMode];
  if (typeof options.existing !== 'string' || options.existing === '') return wanted;
  const kept = options.existing.split(',').filter((item) => !item.startsWith('boot_mode:') && !item.startsWith('secure_boot:'));
  return [...kept, wanted].join(',');
}

/** `instance_info.capabilities`: a JSON map, where only secure boot needs saying. */
export function instanceCapabilities(bootMode: BootMode): Record<string, string> {
  return bootMode === 'UEFISecureBoot' ? { secure_boot: 'true' } : {};
}
