import { describe, expect, it } from '@jest/globals';
import type { HardwareDetails, Storage } from '../../api/hardware-details.ts';
import { HARDWARE_LABEL_PREFIX, HARDWARE_LABELS } from '../../api/labels.ts';
import { hardwareLabels, isLabelValue } from './hardware-labels.ts';

const GiB = 1024 ** 3;
const disk = (name: string, gib: number, extra: Partial<Storage> = {}): Storage => ({
  name,
  alternateNames: [name],
  sizeBytes: Math.round(gib * GiB),
  type: 'SSD',
  rotational: false,
  ...extra,
});

const server: HardwareDetails = {
  ramMebibytes: 65_536,
  cpu: { arch: 'x86_64', count: 32 },
  nics: [
    { name: 'enp1s0', mac: '00:5a:91:00:00:01', ip: '192.0.2.10' },
    // The same NIC again for its IPv6 address.
    { name: 'enp1s0', mac: '00:5A:91:00:00:01', ip: '2001:db8::10' },
    { name: 'enp2s0', mac: '00:5a:91:00:00:02' },
  ],
  storage: [
    disk('/dev/sda', 447.13),
    disk('/dev/sdb', 1862.89, { type: 'HDD', rotational: true }),
    disk('/dev/nvme0n1', 1490.42, { type: 'NVME' }),
  ],
};

const full = {
  'hardware.metal3.io/cpu-count': '32',
  'hardware.metal3.io/cpu-arch': 'x86_64',
  'hardware.metal3.io/ram-gib': '64',
  'hardware.metal3.io/disk-gib': '447',
  'hardware.metal3.io/disk-type': 'ssd',
  'hardware.metal3.io/nic-count': '2',
};

describe('hardware labels', () => {
  it('exports the six keys under one prefix', () => {
    expect(HARDWARE_LABELS.every((key) => key.startsWith(HARDWARE_LABEL_PREFIX))).toBe(true);
    expect([...HARDWARE_LABELS].sort()).toEqual(Object.keys(full).sort());
  });

  it.each<[string, HardwareDetails, Record<string, string | undefined>]>([
    ['a three-disk server, default /dev/sda root disk', server, full],
    ['no disks at all: no disk labels', { ...server, storage: [] }, { ...full, 'hardware.metal3.io/disk-gib': undefined, 'hardware.metal3.io/disk-type': undefined }],
    ['storage missing: no disk labels', { ...server, storage: undefined }, { ...full, 'hardware.metal3.io/disk-gib': undefined, 'hardware.metal3.io/disk-type': undefined }],
    ['missing ramMebibytes: no ram label', { ...server, ramMebibytes: undefined }, { ...full, 'hardware.metal3.io/ram-gib': undefined }],
    ['RAM rounds down to whole GiB', { ...server, ramMebibytes: 2047 }, { ...full, 'hardware.metal3.io/ram-gib': '1' }],
    ['under 1 GiB of RAM is 0', { ...server, ramMebibytes: 512 }, { ...full, 'hardware.metal3.io/ram-gib': '0' }],
    ['no cpu: no cpu labels', { ...server, cpu: undefined }, { ...full, 'hardware.metal3.io/cpu-count': undefined, 'hardware.metal3.io/cpu-arch': undefined }],
    ['an empty architecture is no label', { ...server, cpu: { arch: '', count: 4 } }, { ...full, 'hardware.metal3.io/cpu-count': '4', 'hardware.metal3.io/cpu-arch': undefined }],
    ['an architecture that is not a label value is left out', { ...server, cpu: { arch: 'x86 64!', count: 4 } }, { ...full, 'hardware.metal3.io/cpu-count': '4', 'hardware.metal3.io/cpu-arch': undefined }],
    ['a negative count is nonsense, not a label', { ...server, cpu: { arch: 'aarch64', count: -1 } }, { ...full, 'hardware.metal3.io/cpu-count': undefined, 'hardware.metal3.io/cpu-arch': 'aarch64' }],
    ['no NICs listed: no nic label', { ...server, nics: undefined }, { ...full, 'hardware.metal3.io/nic-count': undefined }],
    ['an empty NIC list counts 0', { ...server, nics: [] }, { ...full, 'hardware.metal3.io/nic-count': '0' }],
    ['NICs without MAC count by name, anonymous ones each', { ...server, nics: [{ name: 'eth0' }, { name: 'eth0' }, {}, {}] }, { ...full, 'hardware.metal3.io/nic-count': '3' }],
    [
      'disk type from rotational when type is missing',
      { ...server, storage: [disk('/dev/sda', 100, { type: undefined, rotational: true })] },
      { ...full, 'hardware.metal3.io/disk-gib': '100', 'hardware.metal3.io/disk-type': 'hdd' },
    ],
    [
      'a disk with neither type nor rotational has a size but no type',
      { ...server, storage: [disk('/dev/sda', 100, { type: undefined, rotational: undefined })] },
      { ...full, 'hardware.metal3.io/disk-gib': '100', 'hardware.metal3.io/disk-type': undefined },
    ],
    [
      'a disk without a size has a type but no size',
      { ...server, storage: [disk('/dev/sda', 0, { sizeBytes: undefined, type: 'NVME' })] },
      { ...full, 'hardware.metal3.io/disk-gib': undefined, 'hardware.metal3.io/disk-type': 'nvme' },
    ],
    [
      'no disk matches the default hint /dev/sda: no disk labels',
      { ...server, storage: [disk('/dev/vda', 100)] },
      { ...full, 'hardware.metal3.io/disk-gib': undefined, 'hardware.metal3.io/disk-type': undefined },
    ],
  ])('%s', (_name, hardware, expected) => {
    const wanted = Object.fromEntries(Object.entries(expected).filter(([, value]) => value !== undefined));
    expect(hardwareLabels({ hardware, rootDeviceHints: { deviceName: '/dev/sda' } })).toEqual(wanted);
  });

  it('describes the root disk the hints choose, not the largest or the total', () => {
    const labels = hardwareLabels({ hardware: server, rootDeviceHints: { rotational: true } });
    expect(labels).toMatchObject({ 'hardware.metal3.io/disk-gib': '1862', 'hardware.metal3.io/disk-type': 'hdd' });
    expect(hardwareLabels({ hardware: server, rootDeviceHints: { deviceName: '/dev/nvme0n1' } })).toMatchObject({
      'hardware.metal3.io/disk-gib': '1490',
      'hardware.metal3.io/disk-type': 'nvme',
    });
  });

  it('without hints uses IPA’s default, the smallest disk of at least 4 GiB', () => {
    const hardware = { ...server, storage: [disk('/dev/sdz', 2, { type: 'HDD' }), ...server.storage!] };
    expect(hardwareLabels({ hardware, rootDeviceHints: {} })).toMatchObject({ 'hardware.metal3.io/disk-gib': '447', 'hardware.metal3.io/disk-type': 'ssd' });
  });

  it('has no disk labels for a software RAID root (no hints at all)', () => {
    const labels = hardwareLabels({ hardware: server, rootDeviceHints: undefined });
    expect(labels).not.toHaveProperty(['hardware.metal3.io/disk-gib']);
    expect(labels).not.toHaveProperty(['hardware.metal3.io/disk-type']);
  });

  it('follows the hardware when it changes', () => {
    const before = hardwareLabels({ hardware: server, rootDeviceHints: { deviceName: '/dev/sda' } });
    const grown = { ...server, ramMebibytes: 131_072, cpu: { arch: 'x86_64', count: 64 }, storage: [disk('/dev/sda', 960, { type: 'NVME' })] };
    const after = hardwareLabels({ hardware: grown, rootDeviceHints: { deviceName: '/dev/sda' } });
    expect(before).not.toEqual(after);
    expect(after).toMatchObject({
      'hardware.metal3.io/cpu-count': '64',
      'hardware.metal3.io/ram-gib': '128',
      'hardware.metal3.io/disk-gib': '960',
      'hardware.metal3.io/disk-type': 'nvme',
    });
  });

  it('only ever produces valid label values, integers as plain decimals', () => {
    for (const value of Object.values(hardwareLabels({ hardware: server, rootDeviceHints: { deviceName: '/dev/sda' } }))) {
      expect(isLabelValue(value!)).toBe(true);
    }
    expect(isLabelValue('x'.repeat(64))).toBe(false);
    expect(isLabelValue('-x')).toBe(false);
    expect(isLabelValue('')).toBe(true);
  });
});
