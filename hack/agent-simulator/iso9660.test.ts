import { describe, expect, it } from '@jest/globals';
import { readBootCatalog } from './el-torito.ts';
import { Iso9660Image, IsoFormatError } from './iso9660.ts';
import { buildIso, requireMkisofs, IRONIC_UEFI_ARGS } from './test-support/mkisofs.ts';

const mkisofs = requireMkisofs();

const GRUB_CFG = `set default=0
set timeout=5
set hidden_timeout_quiet=false

menuentry "boot_partition" {
linux /vmlinuz ipa-agent-token=abc ipa-debug=1 boot_method=vmedia --
initrd /initrd
}`;

/** What Ironic puts on a UEFI boot ISO: kernel, ramdisk, ESP and grub.cfg. */
const ironicTree = {
  vmlinuz: 'kernel\n',
  initrd: 'ramdisk\n',
  'boot/grub/efiboot.img': Buffer.alloc(4096, 0xaa),
  'EFI/BOOT/grub.cfg': GRUB_CFG,
};

describe('Iso9660Image', () => {
  it('refuses what is not an ISO 9660 image', () => {
    expect(() => new Iso9660Image(Buffer.from('metal3-ts placeholder ipa.iso\n'))).toThrow(IsoFormatError);
    expect(() => new Iso9660Image(Buffer.alloc(40 * 2048))).toThrow(/no primary volume descriptor/);
  });

  describe('on images made by mkisofs', () => {
    it('reads the tree and files of an ISO built the way Ironic builds its UEFI boot ISO', () => {
      const image = new Iso9660Image(buildIso(mkisofs, ironicTree, IRONIC_UEFI_ARGS));
      expect(image.volumeId).toBe('VMEDIA_BOOT_ISO');
      expect(image.blockSize).toBe(2048);
      // Rock Ridge (-r) keeps the real, lower-case names.
      expect(image.list('/')?.map((entry) => entry.name).sort()).toEqual(['EFI', 'boot', 'boot.catalog', 'initrd', 'vmlinuz']);
      expect(image.filePaths()).toEqual(expect.arrayContaining(['/EFI/BOOT/grub.cfg', '/boot/grub/efiboot.img', '/vmlinuz']));
      expect(image.readFile('/EFI/BOOT/grub.cfg')?.toString('utf8')).toBe(GRUB_CFG);
      expect(image.readFile('vmlinuz')?.toString('utf8')).toBe('kernel\n');
      expect(image.readFile('/EFI/BOOT')).toBeUndefined();
      expect(image.readFile('/EFI/BOOT/missing.cfg')).toBeUndefined();
      expect(image.list('/vmlinuz')).toBeUndefined();
    });

    it('finds plain ISO names (upper case, no version) case-insensitively without Rock Ridge', () => {
      const image = new Iso9660Image(buildIso(mkisofs, ironicTree, ['-V', 'PLAIN']));
      expect(image.list('/')?.map((entry) => entry.name).sort()).toEqual(['BOOT', 'EFI', 'INITRD', 'VMLINUZ']);
      expect(image.readFile('/efi/boot/grub.cfg')?.toString('utf8')).toBe(GRUB_CFG);
      expect(image.bootCatalogBlock).toBeUndefined();
    });

    it('reads directories that span several blocks', () => {
      const files: Record<string, string> = {};
      for (let index = 0; index < 120; index++) files[`many/a-rather-long-file-name-number-${index}.txt`] = `file ${index}\n`;
      const image = new Iso9660Image(buildIso(mkisofs, files, ['-r', '-l']));
      const many = image.list('/many') ?? [];
      expect(many).toHaveLength(120);
      expect(many.find((entry) => entry.name === 'a-rather-long-file-name-number-119.txt')?.size).toBe(9);
      expect(image.readFile('/many/a-rather-long-file-name-number-77.txt')?.toString()).toBe('file 77\n');
    });

    it('keeps Rock Ridge names too long for one directory record (NM continued in a CE area)', () => {
      const long = `${'x'.repeat(120)}-${'y'.repeat(100)}.cfg`;
      const image = new Iso9660Image(buildIso(mkisofs, { [`dir/${long}`]: 'hello\n', 'dir/short': '' }, ['-r', '-l']));
      expect(image.list('/dir')?.map((entry) => entry.name).sort()).toEqual(['short', long]);
      expect(image.readFile(`/dir/${long}`)?.toString()).toBe('hello\n');
    });

    it('reads the El Torito boot catalog: EFI only, or BIOS plus an alternative EFI entry', () => {
      const uefi = new Iso9660Image(buildIso(mkisofs, ironicTree, IRONIC_UEFI_ARGS));
      const efiImage = uefi.list('/boot/grub')?.find((entry) => entry.name === 'efiboot.img');
      // The firmware loads the whole ESP: its size in 512-byte virtual sectors.
      expect(readBootCatalog(uefi)).toEqual([{ platform: 'efi', bootable: true, loadBlock: efiImage?.extent, sectorCount: 4096 / 512 }]);

      const hybrid = new Iso9660Image(
        buildIso(mkisofs, { ...ironicTree, 'isolinux/isolinux.bin': Buffer.alloc(2048, 0x90), 'isolinux/isolinux.cfg': 'default boot\n' }, [
          '-r', '-b', 'isolinux/isolinux.bin', '-no-emul-boot', '-boot-load-size', '4', '-boot-info-table',
          '-eltorito-alt-boot', '-e', 'boot/grub/efiboot.img', '-no-emul-boot',
        ]),
      );
      expect(readBootCatalog(hybrid).map((entry) => [entry.platform, entry.bootable])).toEqual([
        ['x86', true],
        ['efi', true],
      ]);
    });

    it('reports a truncated image instead of reading past its end', () => {
      const whole = buildIso(mkisofs, ironicTree, IRONIC_UEFI_ARGS);
      // The volume descriptors (blocks 16-19) survive; the directories after them do not.
      const image = new Iso9660Image(whole.subarray(0, 20 * 2048));
      expect(() => image.filePaths()).toThrow(/beyond the end of the image/);
    });
  });
});
