import { createHash } from 'node:crypto';
import { toAgentError, type AgentError } from '../agent-errors.ts';
import type { RamdiskAgent } from '../agent.ts';
import { decodeConfigDrive, type DecodedConfigDrive } from '../configdrive.ts';
import { readConfigDriveContents, type ConfigDriveContents } from '../configdrive-contents.ts';
import { downloadAndVerifyImage, type DownloadedImage } from '../image-download.ts';
import { validateImageInfo, type ImageInfo } from '../image-info.ts';
import type { ImageWriteRecord } from '../records.ts';
import { osInstallDisk } from './disks.ts';

function isPartitionImage(info: ImageInfo): boolean {
  return info.image_type === 'partition';
}

/** Deterministic stand-ins for the UUIDs a real write would produce (same image + disk => same ids). */
function fakeUuid(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('/')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function partitionUuidsFor(info: ImageInfo, device: string, systemUuid: string): Record<string, unknown> {
  if (!isPartitionImage(info)) {
    // For whole-disk images IPA reports the disk identifier (MBR signature / GPT id) as the root "uuid".
    return { 'root uuid': `0x${fakeUuid(systemUuid, device, info.id).slice(0, 8)}` };
  }
  const root = fakeUuid(systemUuid, device, info.id, 'root');
  const uuids: Record<string, unknown> = {
    'root uuid': root,
    partitions: { root: `${device}${device.includes('nvme') ? 'p' : ''}2` },
  };
  if (info.deploy_boot_mode !== 'bios') uuids['efi system partition uuid'] = fakeUuid(systemUuid, device, info.id, 'esp');
  return uuids;
}

function resultMessage(info: ImageInfo, device: string, uuids: Record<string, unknown>): string {
  const root = String(uuids['root uuid'] ?? 'None');
  const esp = uuids['efi system partition uuid'];
  if (info.deploy_boot_mode === 'uefi' && typeof esp === 'string') {
    return `image (${info.id}) written to device ${device} root_uuid=${root} efi_system_partition_uuid=${esp}`;
  }
  return `image (${info.id}) written to device ${device} root_uuid=${root}`;
}

function configDriveRecord(decoded: DecodedConfigDrive | undefined, contents: ConfigDriveContents | undefined): ImageWriteRecord['configDrive'] {
  if (decoded === undefined) return { written: false };
  return {
    written: true, bytes: decoded.bytes, sha256: decoded.sha256, source: decoded.source,
    ...(contents ? { metaData: contents.metaData } : {}),
    ...(contents?.networkData ? { networkData: contents.networkData } : {}),
    ...(contents?.userData !== undefined ? { userData: contents.userData } : {}),
  };
}

/**
 * IPA's standby.prepare_image: validate, download + verify (unless this boot already
 * cached the same image), "write" it to the OS install disk, then the config drive.
 * Every attempt is recorded, failed ones included.
 */
export async function prepareImage(agent: RamdiskAgent, rawInfo: unknown, configdriveParam: unknown): Promise<string> {
  const { systemUuid, records, logger } = agent.services;
  const partial = (rawInfo ?? {}) as Partial<ImageInfo>;
  const base = {
    nodeUuid: agent.node?.uuid ?? null,
    imageId: typeof partial.id === 'string' ? partial.id : 'unknown',
    diskFormat: typeof partial.disk_format === 'string' ? partial.disk_format : null,
    imageType: partial.image_type === 'partition' ? ('partition' as const) : ('whole-disk' as const),
    requestAuthorization: typeof partial.image_request_authorization === 'string' && partial.image_request_authorization !== '',
  };
  let device: string | null = null;
  let downloaded: DownloadedImage | undefined;
  try {
    const info = validateImageInfo(rawInfo, agent.md5Allowed);
    const configdrive =
      typeof configdriveParam === 'string' ? configdriveParam : typeof info.configdrive === 'string' ? info.configdrive : null;
    device = osInstallDisk(agent).name;
    const alreadyCached = agent.cachedImageId === info.id;
    if (!alreadyCached) {
      downloaded = await downloadAndVerifyImage(info, {
        md5Allowed: agent.md5Allowed,
        ...agent.services.imageDownload,
        onRetry: (attempt, error) => logger.warn('image download failed, retrying', { systemUuid, attempt, error: error.details }),
      });
      agent.cachedImageId = info.id;
      agent.partitionUuids = partitionUuidsFor(info, device, systemUuid);
    }
    const decoded = configdrive === null ? undefined : await decodeConfigDrive(configdrive, info.node_uuid ?? 'local');
    const contents = decoded === undefined ? undefined : readConfigDriveContents(decoded.image);
    const uuids = agent.partitionUuids ?? {};
    records.addImageWrite(systemUuid, {
      ...base,
      outcome: 'written',
      url: downloaded?.url ?? info.urls[0] ?? null,
      device,
      checksum:
        downloaded === undefined
          ? null
          : {
              algorithm: downloaded.checksum.algorithm,
              expected: downloaded.checksum.value,
              actual: downloaded.checksum.actual,
              source: downloaded.checksum.source,
            },
      bytes: downloaded?.bytes ?? null,
      configDrive: configDriveRecord(decoded, contents),
    });
    agent.services.disk.imageWritten({
      device,
      url: downloaded?.url ?? info.urls[0] ?? null,
      nodeUuid: agent.node?.uuid ?? null,
      configDrive: contents,
    });
    logger.info('image written', { systemUuid, imageId: info.id, device, bytes: downloaded?.bytes, cached: alreadyCached });
    return resultMessage(info, device, uuids);
  } catch (error) {
    const agentError: AgentError = toAgentError(error);
    records.addImageWrite(systemUuid, {
      ...base,
      outcome: 'failed',
      url: Array.isArray(partial.urls) && typeof partial.urls[0] === 'string' ? partial.urls[0] : null,
      device,
      checksum: null,
      bytes: null,
      configDrive: { written: false },
      error: agentError.details,
    });
    logger.warn('image write failed', { systemUuid, imageId: base.imageId, error: agentError.details });
    throw agentError;
  }
}

/** IPA's standby.cache_image: download and verify only. */
export async function cacheImage(agent: RamdiskAgent, rawInfo: unknown): Promise<string> {
  const info = validateImageInfo(rawInfo, agent.md5Allowed);
  const device = osInstallDisk(agent).name;
  if (agent.cachedImageId !== info.id) {
    await downloadAndVerifyImage(info, { md5Allowed: agent.md5Allowed, ...agent.services.imageDownload });
    agent.cachedImageId = info.id;
    agent.partitionUuids = partitionUuidsFor(info, device, agent.services.systemUuid);
  }
  return `image (${info.id}) cached to device ${device} `;
}
