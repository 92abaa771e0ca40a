import { describe, it, expect } from '@jest/globals';
import { instanceCapabilities, nodeCapabilities } from './boot-mode-capabilities.ts';
import type { InstanceSettingsOptions } from './instance-info.ts';
import { instanceSettings, registrationDeployInterface } from './instance-info.ts';

const base: InstanceSettingsOptions = {
  uid: 'uid-1',
  image: { url: 'http://images/ubuntu.qcow2', checksum: 'http://images/ubuntu.qcow2.sha256sum', format: 'qcow2' },
  bootMode: 'UEFI',
  rootDeviceHints: { deviceName: '/dev/sda' },
};

describe('instanceSettings', () => {
  it('writes a regular image with an auto-detected checksum', () => {
    expect(instanceSettings(base)).toEqual({
      instanceUuid: 'uid-1',
      instanceInfo: {
        capabilities: {},
        root_device: { name: 's== /dev/sda' },
        boot_iso: null,
        image_source: 'http://images/ubuntu.qcow2',
        image_disk_format: 'qcow2',
        image_pull_secret: null,
        image_checksum: 'http://images/ubuntu.qcow2.sha256sum',
        image_os_hash_algo: null,
        image_os_hash_value: null,
      },
      deployInterface: undefined,
      driverInfo: { force_persistent_boot_device: 'Default' },
    });
  });

  it('uses os_hash fields for an explicit checksum type', () => {
    const settings = instanceSettings({ ...base, image: { url: 'http://i/img.raw', checksum: 'deadbeef', checksumType: 'sha512' } });
    expect(settings.instanceInfo).toMatchObject({ image_checksum: null, image_os_hash_algo: 'sha512', image_os_hash_value: 'deadbeef', image_disk_format: null });
  });

  it('sends no checksum for an OCI image, and the pull secret', () => {
    const settings = instanceSettings({ ...base, image: { url: 'oci://quay.io/org/os:1' }, imagePullSecret: 'dXNlcjpwYXNz' });
    expect(settings.instanceInfo).toMatchObject({
      image_source: 'oci://quay.io/org/os:1',
      image_checksum: null,
      image_os_hash_algo: null,
      image_os_hash_value: null,
      image_pull_secret: 'dXNlcjpwYXNz',
    });
  });

  it('clears a ramdisk or custom-agent deploy interface for a regular image', () => {
    expect(instanceSettings({ ...base, currentDeployInterface: 'ramdisk' }).deployInterface).toBeNull();
    expect(instanceSettings({ ...base, currentDeployInterface: 'custom-agent' }).deployInterface).toBeNull();
    expect(instanceSettings({ ...base, currentDeployInterface: 'direct' }).deployInterface).toBeUndefined();
  });

  it('honours the persistent boot device settings', () => {
    const settings = instanceSettings({ ...base, forcePersistentBootDevice: { directDeploy: 'Never', liveIso: 'Always' } });
    expect(settings.driverInfo).toEqual({ force_persistent_boot_device: 'Never' });
  });

  it('boots a live ISO with the ramdisk deploy interface', () => {
    const settings = instanceSettings({
      ...base,
      bootMode: 'UEFISecureBoot',
      image: { url: 'http://images/live.iso', format: 'live-iso' },
      forcePersistentBootDevice: { liveIso: 'Always' },
    });
    expect(settings).toEqual({
      instanceUuid: 'uid-1',
      instanceInfo: {
        capabilities: { secure_boot: 'true' },
        root_device: { name: 's== /dev/sda' },
        boot_iso: 'http://images/live.iso',
        image_source: null,
        image_os_hash_value: null,
        image_os_hash_algo: null,
        image_checksum: null,
      },
      deployInterface: 'ramdisk',
      driverInfo: { force_persistent_boot_device: 'Always' },
    });
  });

  it('leaves image fields alone when the checksum is unusable', () => {
    const settings = instanceSettings({ ...base, image: { url: 'http://i/img' } });
    expect(settings.instanceInfo).toEqual({ capabilities: {}, root_device: { name: 's== /dev/sda' } });
    expect(settings.driverInfo).toEqual({});
  });

  it('runs a custom deploy with optional image fields', () => {
    const settings = instanceSettings({ ...base, customDeployMethod: 'install_coreos', image: { url: 'http://i/img', checksum: 'abc', checksumType: 'auto' } });
    expect(settings).toEqual({
      instanceUuid: 'uid-1',
      instanceInfo: {
        capabilities: {},
        root_device: { name: 's== /dev/sda' },
        boot_iso: null,
        image_checksum: null,
        image_source: 'http://i/img',
        image_os_hash_algo: '',
        image_os_hash_value: 'abc',
        image_disk_format: null,
        image_pull_secret: null,
      },
      deployInterface: 'custom-agent',
      driverInfo: {},
    });
    const noChecksum = instanceSettings({ ...base, customDeployMethod: 'install_coreos', image: { url: 'http://i/img' } });
    expect(noChecksum.instanceInfo).toMatchObject({ image_os_hash_algo: null, image_os_hash_value: null });
  });

  it('clears every image field for a custom deploy without an image', () => {
    const settings = instanceSettings({ ...base, customDeployMethod: 'install_coreos', image: undefined, rootDeviceHints: undefined });
    expect(settings.instanceInfo).toEqual({
      capabilities: {},
      root_device: {},
      boot_iso: null,
      image_source: null,
      image_checksum: null,
      image_os_hash_algo: null,
      image_os_hash_value: null,
      image_disk_format: null,
      image_pull_secret: null,
    });
    expect(settings.deployInterface).toBe('custom-agent');
  });
});

describe('registrationDeployInterface', () => {
  it.each([
    [{ hasCustomDeploy: true, currentImage: { url: 'x', format: 'live-iso' } }, 'custom-agent'],
    [{ hasCustomDeploy: false, currentImage: { url: 'x', format: 'live-iso' } }, 'ramdisk'],
    [{ hasCustomDeploy: false, currentImage: { url: 'x', format: 'qcow2' } }, ''],
    [{ hasCustomDeploy: false }, ''],
  ])('%j', (options, expected) => {
    expect(registrationDeployInterface(options)).toBe(expected);
  });
});

describe('boot mode capabilities', () => {
  it.each([
    ['UEFI', undefined, 'boot_mode:uefi'],
    ['UEFISecureBoot', '', 'boot_mode:uefi,secure_boot:true'],
    ['legacy', { not: 'a string' }, 'boot_mode:bios'],
    ['UEFI', 'cpu_vt:true,boot_mode:bios,secure_boot:true,cpu_hugepages:true', 'cpu_vt:true,cpu_hugepages:true,boot_mode:uefi'],
    // What inspection leaves (the boot mode first): already right, so kept as it is.
    ['UEFI', 'boot_mode:uefi,cpu_vt:true,cpu_aes:true', 'boot_mode:uefi,cpu_vt:true,cpu_aes:true'],
    ['UEFISecureBoot', 'secure_boot:true,cpu_vt:true,boot_mode:uefi', 'secure_boot:true,cpu_vt:true,boot_mode:uefi'],
    ['UEFI', 'boot_mode:uefi,secure_boot:true,cpu_vt:true', 'cpu_vt:true,boot_mode:uefi'],
    ['UEFI', 'boot_mode:uefi,boot_mode:bios', 'boot_mode:uefi'],
  ] as const)('%s over %j', (bootMode, existing, expected) => {
    expect(nodeCapabilities({ bootMode, existing })).toBe(expected);
  });

  it('puts only secure boot into instance_info', () => {
    expect(instanceCapabilities('UEFISecureBoot')).toEqual({ secure_boot: 'true' });
    expect(instanceCapabilities('legacy')).toEqual({});
  });
});
