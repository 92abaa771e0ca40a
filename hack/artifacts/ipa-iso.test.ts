import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { bootFromCd } from '../agent-simulator/boot-media.ts';
import { isLiveOs, ramdiskParameters } from '../agent-simulator/ramdisk-params.ts';
import { requireMkisofs } from '../agent-simulator/test-support/mkisofs.ts';
import { writeIpaIso, writeLiveOsIso } from './ipa-iso.ts';

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
      expect(isLiveOs(boot.commandLine)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('writeLiveOsIso', () => {
  it('makes a UEFI-bootable ISO that boots a live OS, not the agent', () => {
    const dir = mkdtempSync(join(tmpdir(), 'live-iso-test-'));
    try {
      const output = join(dir, 'live-os.iso');
      writeLiveOsIso(output, { kernel: Buffer.from('k'), ramdisk: Buffer.from('r'), esp: Buffer.from('esp') });
      const boot = bootFromCd(readFileSync(output), 'uefi');
      expect(boot).toMatchObject({ volumeId: 'LIVE_OS', platform: 'efi', configPath: '/EFI/BOOT/grub.cfg' });
      expect(isLiveOs(boot.commandLine)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
