/** The kernel a boot loader starts by default, and the command line it gives it. */
export interface BootLoaderEntry {
  title: string;
  kernel: string;
  /** Everything after the kernel path, as written. */
  commandLine: string;
  /** The initramfs the entry loads with it (`initrd`/`initrdefi`), if any. */
  initrd?: string;
}

const INITRD_COMMANDS = new Set(['initrd', 'initrdefi', 'initrd16']);

const LINUX_COMMANDS = new Set(['linux', 'linuxefi', 'linux16']);

/**
 * The default entry of a grub.cfg such as the one Ironic writes on its UEFI boot
 * ISOs (common/grub_conf.template): `set default` by index or title, else the first
 * menuentry; a `linux` line outside any menuentry when there is no menu.
 */
export function parseGrubConfig(text: string): BootLoaderEntry | undefined {
  let defaultEntry: string | undefined;
  const entries: BootLoaderEntry[] = [];
  let topLevel: BootLoaderEntry | undefined;
  let open: { title: string; entry: BootLoaderEntry | undefined } | undefined;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const setDefault = /^set\s+default=(.*)$/.exec(line);
    if (setDefault !== null && open === undefined) {
      defaultEntry = unquote(setDefault[1]!.trim());
      continue;
    }
    const menuentry = /^menuentry\s+(?:"([^"]*)"|'([^']*)'|(\S+)).*\{\s*$/.exec(line);
    if (menuentry !== null) {
      open = { title: menuentry[1] ?? menuentry[2] ?? menuentry[3] ?? '', entry: undefined };
      continue;
    }
    if (line === '}' && open !== undefined) {
      if (open.entry !== undefined) entries.push(open.entry);
      else entries.push({ title: open.title, kernel: '', commandLine: '' });
      open = undefined;
      continue;
    }
    const linux = /^(\S+)\s+(\S+)\s*(.*)$/.exec(line);
    if (linux !== null && INITRD_COMMANDS.has(linux[1]!)) {
      const owner = open !== undefined ? open.entry : topLevel;
      if (owner !== undefined) owner.initrd ??= linux[2]!;
      continue;
    }
    if (linux === null || !LINUX_COMMANDS.has(linux[1]!)) continue;
    const entry = { title: open?.title ?? '', kernel: linux[2]!, commandLine: linux[3]! };
    if (open !== undefined) open.entry ??= entry;
    else topLevel ??= entry;
  }
  if (entries.length === 0) return topLevel;
  const chosen =
    defaultEntry !== undefined && /^\d+$/.test(defaultEntry)
      ? entries[Number(defaultEntry)]
      : entries.find((entry) => entry.title === defaultEntry);
  const entry = chosen ?? entries[0]!;
  return entry.kernel === '' ? undefined : entry;
}

function unquote(value: string): string {
  return value.replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');
}
