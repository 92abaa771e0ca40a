import type { RootDeviceHints } from '../devicehints/root-device-hints.ts';
import { ironicRootDevice } from '../devicehints/ironic-root-device.ts';
import type { BootMode } from './boot-mode-capabilities.ts';
import { instanceCapabilities } from './boot-mode-capabilities.ts';
import type { Image } from './image.ts';
import { imageChecksum, isLiveIso } from './image.ts';

/** Desired `instance_info` values; null means "remove the key if present". */
export type InstanceInfo = Record<string, unknown>;

export interface InstanceSettingsOptions {
  /** The BareMetalHost UID, used as Ironic `instance_uuid`. */
  uid: string;
  image: Image | undefined;
  bootMode: BootMode;
  rootDeviceHints: RootDeviceHints | undefined;
  customDeployMethod?: string | undefined;
  /** Registry credentials for oci:// images, `username:password` as Ironic takes them (`instance_info.image_pull_secret`). */
  imagePullSecret?: string | undefined;
  /** The node's current `deploy_interface`, to know whether an override must be cleared. */
  currentDeployInterface?: string | undefined;
  /** LIVE_ISO_FORCE_PERSISTENT_BOOT_DEVICE / DIRECT_DEPLOY_FORCE_PERSISTENT_BOOT_DEVICE; default "Default". */
  forcePersistentBootDevice?: { liveIso?: string | undefined; directDeploy?: string | undefined };
}

/** What to PATCH on the node before `active`; the caller diffs against the node. */
export interface InstanceSettings {
  instanceUuid: string;
  instanceInfo: InstanceInfo;
  /** undefined: leave as is; null: back to Ironic's default; else the interface to set. */
  deployInterface: string | null | undefined;
  driverInfo: Record<string, string>;
}

const IMAGE_FIELDS_CLEARED = {
  boot_iso: null,
  image_source: null,
  image_checksum: null,
  image_os_hash_algo: null,
  image_os_hash_value: null,
  image_disk_format: null,
  image_pull_secret: null,
} as const;

function persistentBootDevice(value: string | undefined): Record<string, string> {
  return { force_persistent_boot_device: value || 'Default' };
}

/** Checksum fields: none for OCI/live ISO, `image_checksum` when Ironic detects the type, else os_hash. */
function checksumFields(checksum: string, checksumType: string): InstanceInfo {
  if (checksum === '' && checksumType === '') return { image_checksum: null, image_os_hash_algo: null, image_os_hash_value: null };
  if (checksumType === '') return { image_checksum: checksum, image_os_hash_algo: null, image_os_hash_value: null };
  return { image_checksum: null, image_os_hash_algo: checksumType, image_os_hash_value: checksum };
}

function customDeploySettings(options: InstanceSettingsOptions): Pick<InstanceSettings, 'instanceInfo' | 'deployInterface' | 'driverInfo'> {
  const image = options.image;
  if (image === undefined || image.url === '') {
    return { instanceInfo: { ...IMAGE_FIELDS_CLEARED }, deployInterface: 'custom-agent', driverInfo: {} };
  }
  // Every image field is optional for a custom deploy; an unusable checksum is just left out.
  const checksum = imageChecksum(image);
  return {
    instanceInfo: {
      boot_iso: null,
      image_checksum: null,
      image_source: image.url,
      image_os_hash_algo: checksum.ok ? checksum.checksumType : null,
      image_os_hash_value: checksum.ok ? checksum.checksum : null,
      image_disk_format: image.format ?? null,
      image_pull_secret: options.imagePullSecret || null,
    },
    deployInterface: 'custom-agent',
    driverInfo: {},
  };
}

function liveIsoSettings(image: Image, options: InstanceSettingsOptions): Pick<InstanceSettings, 'instanceInfo' | 'deployInterface' | 'driverInfo'> {
  return {
    instanceInfo: { boot_iso: image.url, image_source: null, image_os_hash_value: null, image_os_hash_algo: null, image_checksum: null },
    deployInterface: 'ramdisk',
    driverInfo: persistentBootDevice(options.forcePersistentBootDevice?.liveIso),
  };
}

function directDeploySettings(options: InstanceSettingsOptions): Pick<InstanceSettings, 'instanceInfo' | 'deployInterface' | 'driverInfo'> {
  const image = options.image ?? { url: '' };
  const checksum = imageChecksum(image);
  // BMO validates the image before this point and otherwise leaves the image fields alone.
  if (!checksum.ok) return { instanceInfo: {}, deployInterface: undefined, driverInfo: {} };
  const overridden = options.currentDeployInterface === 'ramdisk' || options.currentDeployInterface === 'custom-agent';
  return {
    instanceInfo: {
      boot_iso: null,
      image_source: image.url,
      image_disk_format: image.format ?? null,
      image_pull_secret: options.imagePullSecret || null,
      ...checksumFields(checksum.checksum, checksum.checksumType),
    },
    deployInterface: overridden ? null : undefined,
    driverInfo: persistentBootDevice(options.forcePersistentBootDevice?.directDeploy),
  };
}

/** BMO's `getInstanceUpdateOpts`: custom deploy, live ISO or a regular image written to disk. */
export function instanceSettings(options: InstanceSettingsOptions): InstanceSettings {
  const common: InstanceInfo = {
    capabilities: instanceCapabilities(options.bootMode),
    root_device: ironicRootDevice(options.rootDeviceHints),
  };
  const specific = options.customDeployMethod
    ? customDeploySettings(options)
    : options.image !== undefined && isLiveIso(options.image)
      ? liveIsoSettings(options.image, options)
      : directDeploySettings(options);
  return {
    instanceUuid: options.uid,
    instanceInfo: { ...common, ...specific.instanceInfo },
    deployInterface: specific.deployInterface,
    driverInfo: specific.driverInfo,
  };
}

/** `deploy_interface` at registration: set only for a live ISO or a custom deploy. */
export function registrationDeployInterface(options: { currentImage?: Image | undefined; hasCustomDeploy: boolean }): string {
  if (options.hasCustomDeploy) return 'custom-agent';
  return isLiveIso(options.currentImage) ? 'ramdisk' : '';
}
