import { agentErrors } from './agent-errors.ts';

/** The `image_info` Ironic's direct deploy sends with write_image (the fields the simulator reads). */
export interface ImageInfo {
  id: string;
  urls: string[];
  checksum?: string;
  os_hash_algo?: string;
  os_hash_value?: string;
  disk_format?: string | null;
  container_format?: string | null;
  image_type?: string | null;
  stream_raw_images?: boolean;
  node_uuid?: string;
  deploy_boot_mode?: string;
  configdrive?: string | null;
  [field: string]: unknown;
}

function isChecksumUrl(value: string): boolean {
  return value.startsWith('http://') || value.startsWith('https://');
}

/** IPA's _validate_image_info: rejects image_info that could never be verified, before any download. */
export function validateImageInfo(raw: unknown, md5Allowed: boolean): ImageInfo {
  if (raw === null || typeof raw !== 'object') throw agentErrors.invalidCommandParams("Image is missing 'id' field.");
  const info = raw as Record<string, unknown>;
  for (const field of ['id', 'urls']) {
    if (!(field in info)) throw agentErrors.invalidCommandParams(`Image is missing '${field}' field.`);
  }
  if (!Array.isArray(info.urls) || info.urls.length === 0 || !info.urls.every((url) => typeof url === 'string')) {
    throw agentErrors.invalidCommandParams("Image 'urls' must be a list with at least one element.");
  }
  let checksumUsable = false;
  const checksum = info.checksum;
  if (checksum !== undefined && checksum !== null) {
    if (typeof checksum !== 'string' || checksum === '') {
      throw agentErrors.invalidCommandParams("Image 'checksum' must be a non-empty string.");
    }
    // Longer than an MD5 (or a URL) means SHA-2; an MD5-sized value only counts when MD5 is allowed.
    checksumUsable = isChecksumUrl(checksum) || checksum.length > 32 || md5Allowed;
  }
  let osHashUsable = false;
  if (info.os_hash_algo || info.os_hash_value) {
    if (typeof info.os_hash_algo !== 'string' || info.os_hash_algo === '') {
      throw agentErrors.invalidCommandParams("Image 'os_hash_algo' must be a non-empty string.");
    }
    if (typeof info.os_hash_value !== 'string' || info.os_hash_value === '') {
      throw agentErrors.invalidCommandParams("Image 'os_hash_value' must be a non-empty string.");
    }
    osHashUsable = true;
  }
  if (!checksumUsable && !osHashUsable) {
    throw agentErrors.invalidCommandParams(
      "Image checksum is not available, either the 'checksum' field or the 'os_hash_algo' and " +
        "'os_hash_value' fields pair must be set for image verification.",
    );
  }
  return info as ImageInfo;
}
