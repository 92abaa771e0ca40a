import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { bootFromCd } from '../agent-simulator/boot-media.ts';
import { ramdiskParameters } from '../agent-simulator/ramdisk-params.ts';
import { requireMkisofs } from '../agent-simulator/test-support/mkisofs.ts';
import { writeIpaIso } from './ipa-iso.ts';

requireMkisofs();

describe('writeIpaIso', () => {
  it('makes a UEFI-bootable ISO whose kernel command line carries no agent token', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipa-iso-test-'));
    try {
      const output = join(dir, 'ipa.iso');
      writeIpaIso(output, { kernel: Buffer.from('k'), ramdisk: Buffer.from('r'), esp: Buffer.from('esp') });
      const boot = bootFromCd(readFileSync(output), 'uefi');
      expect(boot).toMatchObject({ volumeId: 'IPA_ISO', platform: 'efi', configPath: '/EFI/BOOT/grub.cfg' });
      expect(boot.entry.kernel).toBe('/vmlinuz');
      expect(ramdiskParameters(boot.commandLine)).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
