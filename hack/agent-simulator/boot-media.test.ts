import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { bootFromCd, NotBootableError } from './boot-media.ts';
import { buildIso, requireMkisofs, IRONIC_UEFI_ARGS } from './test-support/mkisofs.ts';

const mkisofs = requireMkisofs();

const grubCfg = (params: string) => `set default=0\nmenuentry "boot_partition" {\nlinux /vmlinuz ${params} --\ninitrd /initrd\n}\n`;
const uefiTree = (grubPath: string, params: string) => ({
  vmlinuz: 'k',
  initrd: 'r',
  'boot/grub/efiboot.img': Buffer.alloc(2048),
  [grubPath]: grubCfg(params),
});

describe('bootFromCd', () => {
  it('does not boot what is not a CD image', () => {
    expect(() => bootFromCd(Buffer.from('metal3-ts placeholder ipa.iso\n'), 'uefi')).toThrow(NotBootableError);
  });

  describe('on images made by mkisofs', () => {
    it('boots an Ironic UEFI ISO through its EFI entry and reads the kernel command line from grub.cfg', () => {
      const iso = buildIso(mkisofs, uefiTree('EFI/BOOT/grub.cfg', 'ipa-agent-token=tok boot_method=vmedia'), IRONIC_UEFI_ARGS);
      const boot = bootFromCd(iso, 'uefi');
      expect(boot).toMatchObject({ volumeId: 'VMEDIA_BOOT_ISO', platform: 'efi', configPath: '/EFI/BOOT/grub.cfg' });
      expect(boot.entry.kernel).toBe('/vmlinuz');
      // What the CD carried, for tests to tell which kernel and ramdisk the server booted.
      const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
      expect(boot).toMatchObject({ kernelSha256: sha256('k'), initrdSha256: sha256('r'), entry: { initrd: '/initrd' } });
      expect(boot.commandLine.parameters).toEqual([
        { key: 'ipa-agent-token', value: 'tok' },
        { key: 'boot_method', value: 'vmedia' },
      ]);
    });

    it('finds grub.cfg where a distribution GRUB looks ([DEFAULT]grub_config_path)', () => {
      const iso = buildIso(mkisofs, uefiTree('EFI/centos/grub.cfg', 'x=1'), IRONIC_UEFI_ARGS);
      expect(bootFromCd(iso, 'uefi').configPath).toBe('/EFI/centos/grub.cfg');
    });

    it('boots a BIOS ISO through isolinux.cfg', () => {
      const iso = buildIso(
        mkisofs,
        {
          vmlinuz: 'k',
          'isolinux/isolinux.bin': Buffer.alloc(2048, 0x90),
          'isolinux/isolinux.cfg': 'default boot\nlabel boot\nkernel /vmlinuz\nappend initrd=/initrd text y=2 --\n',
        },
        ['-r', '-J', '-l', '-no-emul-boot', '-boot-load-size', '4', '-boot-info-table', '-b', 'isolinux/isolinux.bin'],
      );
      const boot = bootFromCd(iso, 'bios');
      expect(boot).toMatchObject({ platform: 'x86', configPath: '/isolinux/isolinux.cfg' });
      expect(boot.commandLine.parameters).toContainEqual({ key: 'y', value: '2' });
    });

    it('refuses CDs the firmware cannot start: wrong platform, no boot catalog, no configuration', () => {
      const uefiOnly = buildIso(mkisofs, uefiTree('EFI/BOOT/grub.cfg', 'x=1'), IRONIC_UEFI_ARGS);
      expect(() => bootFromCd(uefiOnly, 'bios')).toThrow('the CD has no bootable x86 El Torito entry for bios firmware (found: efi)');
      const dataOnly = buildIso(mkisofs, uefiTree('EFI/BOOT/grub.cfg', 'x=1'), ['-r']);
      expect(() => bootFromCd(dataOnly, 'uefi')).toThrow('(found: no El Torito boot catalog)');
      const noConfig = buildIso(mkisofs, { 'boot/grub/efiboot.img': Buffer.alloc(2048) }, IRONIC_UEFI_ARGS);
      expect(() => bootFromCd(noConfig, 'uefi')).toThrow('the CD has no boot loader configuration for uefi firmware');
    });
  });
});
