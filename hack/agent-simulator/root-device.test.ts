import { describe, expect, it } from '@jest/globals';
import { buildInventory } from './inventory.ts';
import { findDisksByHints, guessRootDisk, pickRootDisk } from './root-device.ts';
import { testSystem } from './test-support/agent.ts';

const disks = buildInventory(testSystem()).disks;
const names = (found: { name: string }[]) => found.map((disk) => disk.name);

describe('root device selection', () => {
  it('guesses the smallest disk of at least 4 GiB, like IPA', () => {
    expect(guessRootDisk(disks)?.name).toBe('/dev/sda');
    const tiny = { ...disks[0]!, name: '/dev/sdz', size: 1024 ** 3 };
    expect(guessRootDisk([tiny, ...disks])?.name).toBe('/dev/sda');
    expect(guessRootDisk([tiny])).toBeUndefined();
  });

  it('matches the hints Metal3 sends', () => {
    expect(names(findDisksByHints(disks, { name: 's== /dev/nvme0n1' }))).toEqual(['/dev/nvme0n1']);
    expect(names(findDisksByHints(disks, { name: 'sdb' }))).toEqual(['/dev/sdb']);
    expect(names(findDisksByHints(disks, { rotational: true }))).toEqual(['/dev/sdb']);
    expect(names(findDisksByHints(disks, { rotational: 'false' }))).toEqual(['/dev/sda', '/dev/nvme0n1']);
    expect(names(findDisksByHints(disks, { size: '>= 1000' }))).toEqual(['/dev/sdb', '/dev/nvme0n1']);
    expect(names(findDisksByHints(disks, { size: 447 }))).toEqual(['/dev/sda']);
    expect(names(findDisksByHints(disks, { model: '<in> st2000' }))).toEqual(['/dev/sdb']);
    expect(names(findDisksByHints(disks, { hctl: '<or> 0:0:0:0 <or> 1:0:0:0' }))).toEqual(['/dev/sda', '/dev/sdb']);
    const serial = disks[2]?.serial ?? '';
    expect(names(findDisksByHints(disks, { serial }))).toEqual(['/dev/nvme0n1']);
    expect(names(findDisksByHints(disks, { serial, rotational: true }))).toEqual([]);
  });

  it('uses hints when given, the guess otherwise', () => {
    expect(pickRootDisk(disks, undefined)?.name).toBe('/dev/sda');
    expect(pickRootDisk(disks, {})?.name).toBe('/dev/sda');
    expect(pickRootDisk(disks, { wwn: disks[1]?.wwn })?.name).toBe('/dev/sdb');
    expect(pickRootDisk(disks, { name: '/dev/sdq' })).toBeUndefined();
  });
});
