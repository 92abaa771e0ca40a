import type { BootLoaderEntry } from './grub-config.ts';

/**
 * The default label of an isolinux.cfg such as the one Ironic writes on its BIOS
 * boot ISOs (common/isolinux_config.template): `default <label>`, else the first
 * label. syslinux hands the `append` line to the kernel as it is.
 */
export function parseIsolinuxConfig(text: string): BootLoaderEntry | undefined {
  let defaultLabel: string | undefined;
  const labels: { title: string; kernel: string; commandLine: string }[] = [];
  for (const rawLine of text.split('\n')) {
    const match = /^\s*(\S+)\s*(.*?)\s*$/.exec(rawLine);
    if (match === null || match[1]!.startsWith('#')) continue;
    const keyword = match[1]!.toLowerCase();
    const argument = match[2]!;
    const current = labels.at(-1);
    if (keyword === 'default') defaultLabel = argument;
    else if (keyword === 'label') labels.push({ title: argument, kernel: '', commandLine: '' });
    else if ((keyword === 'kernel' || keyword === 'linux') && current !== undefined) current.kernel = argument;
    else if (keyword === 'append' && current !== undefined) current.commandLine = argument;
  }
  const entry = labels.find((label) => label.title === defaultLabel) ?? labels[0];
  return entry === undefined || entry.kernel === '' ? undefined : entry;
}
