import { describe, expect, it } from '@jest/globals';
import type { Storage } from '../../api/hardware-details.ts';
import type { RootDeviceHints } from '../../api/root-device-hints.ts';
import { rootDisk } from './hardware-labels-root-disk.ts';

const GiB = 1024 ** 3;

// As the operator maps IPA's inventory: the by-path link as name, /dev/X among alternateNames.
const disks: Storage[] = [
  {
    name: '/dev/disk/by-path/pci-0000:00:17.0-ata-1',
    alternateNames: ['/dev/sda', '/dev/disk/by-path/pci-0000:00:17.0-ata-1'],
    sizeBytes: 447 * GiB,
    type: 'SSD',
    rotational: false,
    model: 'MZ7LH480HAHQ0D3',
    vendor: 'ATA',
    serialNumber: 'S45PNA0M1',
    hctl: '0:0:0:0',
    wwn: '0x5002538e00000001',
  },
  {
    name: '/dev/disk/by-path/pci-0000:00:17.0-ata-2',
    alternateNames: ['/dev/sdb'],
    sizeBytes: 1862 * GiB,
    type: 'HDD',
    rotational: true,
    model: 'ST2000NM0055-1V4',
    vendor: 'ATA',
    hctl: '1:0:0:0',
  },
  { name: '/dev/nvme0n1', alternateNames: ['/dev/nvme0n1'], sizeBytes: 1490 * GiB, type: 'NVME', rotational: false, wwn: 'eui.0001' },
];

describe('the root disk', () => {
  it.each<[string, RootDeviceHints | undefined, string | undefined]>([
    ['the /dev name among alternate names', { deviceName: '/dev/sdb' }, '/dev/sdb'],
    ['a name without /dev/', { deviceName: 'nvme0n1' }, '/dev/nvme0n1'],
    ['a by-path link', { deviceName: '/dev/disk/by-path/pci-0000:00:17.0-ata-1' }, '/dev/sda'],
    ['hctl exactly', { hctl: '1:0:0:0' }, '/dev/sdb'],
    ['a model substring, any case', { model: 'st2000' }, '/dev/sdb'],
    ['the first disk whose vendor matches', { vendor: 'ATA' }, '/dev/sda'],
    ['a serial number', { serialNumber: 'S45PNA0M1' }, '/dev/sda'],
    ['a WWN', { wwn: 'eui.0001' }, '/dev/nvme0n1'],
    ['a size lower bound in GiB', { minSizeGigabytes: 1000 }, '/dev/sdb'],
    ['every hint at once', { minSizeGigabytes: 1000, rotational: false }, '/dev/nvme0n1'],
    ['no disk matching', { deviceName: '/dev/vda' }, undefined],
    ['no hints: the smallest disk of at least 4 GiB', {}, '/dev/sda'],
    ['a software RAID root: no single disk', undefined, undefined],
  ])('by %s', (_name, hints, expected) => {
    expect(rootDisk(disks, hints)?.alternateNames?.[0]).toBe(expected);
  });

  it('finds nothing on a host without disks', () => {
    expect(rootDisk([], {})).toBeUndefined();
    expect(rootDisk([], { deviceName: '/dev/sda' })).toBeUndefined();
  });

  it('skips disks under 4 GiB and disks of unknown size without hints', () => {
    expect(rootDisk([{ name: '/dev/sdx', sizeBytes: 2 * GiB }, { name: '/dev/sdy' }], {})).toBeUndefined();
  });
});
