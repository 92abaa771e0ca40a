import { describe, expect, it } from '@jest/globals';
import { parseGrubConfig } from './grub-config.ts';
import { parseIsolinuxConfig } from './isolinux-config.ts';

describe('parseGrubConfig', () => {
  it('reads the entry of the grub.cfg Ironic writes on UEFI boot ISOs', () => {
    const text = [
      'set default=0',
      'set timeout=5',
      'set hidden_timeout_quiet=false',
      '',
      'menuentry "boot_partition" {',
      'linux /vmlinuz ipa-agent-token=abc boot_method=vmedia --',
      'initrd /initrd',
      '}',
    ].join('\n');
    expect(parseGrubConfig(text)).toEqual({
      title: 'boot_partition',
      kernel: '/vmlinuz',
      commandLine: 'ipa-agent-token=abc boot_method=vmedia --',
      initrd: '/initrd',
    });
  });

  it('follows set default by index or title, and takes linuxefi lines', () => {
    const menu = (defaultLine: string) =>
      [
        defaultLine,
        "menuentry 'first' --class os {",
        '  linuxefi /images/one a=1',
        '}',
        'menuentry "second" {',
        '  # a comment',
        '  linux /images/two a=2',
        '}',
      ].join('\n');
    expect(parseGrubConfig(menu('set default=1'))?.kernel).toBe('/images/two');
    expect(parseGrubConfig(menu('set default="second"'))?.commandLine).toBe('a=2');
    expect(parseGrubConfig(menu('set default=7'))?.kernel).toBe('/images/one');
    expect(parseGrubConfig(menu(''))?.title).toBe('first');
  });

  it('takes a linux line outside any menu, and gives nothing when no kernel is started', () => {
    expect(parseGrubConfig('linux /vmlinuz x=1\ninitrd /initrd\nboot\n')).toEqual({ title: '', kernel: '/vmlinuz', commandLine: 'x=1', initrd: '/initrd' });
    expect(parseGrubConfig('menuentry "uefi firmware" {\n  fwsetup\n}\n')).toBeUndefined();
    expect(parseGrubConfig('')).toBeUndefined();
  });
});

describe('parseIsolinuxConfig', () => {
  it('reads the default label of the isolinux.cfg Ironic writes on BIOS boot ISOs', () => {
    const text = ['default boot', '', 'label boot', 'kernel /vmlinuz', 'append initrd=/initrd text ipa-agent-token=abc --'].join('\n');
    expect(parseIsolinuxConfig(text)).toEqual({ title: 'boot', kernel: '/vmlinuz', commandLine: 'initrd=/initrd text ipa-agent-token=abc --' });
  });

  it('falls back to the first label and needs a kernel', () => {
    const text = ['LABEL rescue', '  LINUX /r', '  APPEND x=1', 'LABEL other', '  KERNEL /o'].join('\n');
    expect(parseIsolinuxConfig(text)?.kernel).toBe('/r');
    expect(parseIsolinuxConfig(`DEFAULT other\n${text}`)).toEqual({ title: 'other', kernel: '/o', commandLine: '' });
    expect(parseIsolinuxConfig('label empty\n')).toBeUndefined();
  });
});
