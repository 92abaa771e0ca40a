import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

interface IsoParts {
  kernel: Buffer;
  ramdisk: Buffer;
  esp: Buffer;
}

/**
 * A prebuilt IPA ISO (DEPLOY_ISO_URL, driver_info deploy_iso) shaped like the ones
 * ironic-python-agent-builder makes: kernel, ramdisk, an ESP behind a UEFI El Torito
 * entry, and a grub.cfg. Ironic passes such an ISO to the BMC unchanged, so it
 * carries no agent token: the ramdisk gets its token from lookup. The agent
 * simulator boots it like a server would, so it has to be a real ISO 9660 image.
 * Built with mkisofs (genisoimage, from hack/install-system-packages.sh).
 */
export function writeIpaIso(output: string, parts: IsoParts): void {
  writeUefiIso(output, parts, { volumeId: 'IPA_ISO', title: 'Ironic Python Agent', commandLine: 'nofb vga=normal ipa-debug=1 --' });
}

/**
 * A live OS ISO (BareMetalHost `format: live-iso`): booted over virtual media, it runs from the
 * CD with dracut's live boot, as Fedora/CoreOS live ISOs do; the simulator sees `root=live:` and
 * starts no agent.
 */
export function writeLiveOsIso(output: string, parts: IsoParts): void {
  writeUefiIso(output, parts, { volumeId: 'LIVE_OS', title: 'Live OS', commandLine: 'root=live:CDLABEL=LIVE_OS rd.live.image quiet' });
}

function writeUefiIso(output: string, parts: IsoParts, entry: { volumeId: string; title: string; commandLine: string }): void {
  const scratch = mkdtempSync(join(tmpdir(), 'metal3-ts-iso-'));
  try {
    const files: Record<string, Buffer | string> = {
      vmlinuz: parts.kernel,
      initrd: parts.ramdisk,
      'boot/grub/efiboot.img': parts.esp,
      'EFI/BOOT/grub.cfg': [
        'set default=0',
        'set timeout=5',
        `menuentry "${entry.title}" {`,
        `  linux /vmlinuz ${entry.commandLine}`,
        '  initrd /initrd',
        '}',
        '',
      ].join('\n'),
    };
    for (const [path, contents] of Object.entries(files)) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      writeFileSync(join(scratch, path), contents);
    }
    execFileSync(
      'mkisofs',
      ['-quiet', '-r', '-V', entry.volumeId, '-l', '-e', 'boot/grub/efiboot.img', '-no-emul-boot', '-o', output, scratch],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
