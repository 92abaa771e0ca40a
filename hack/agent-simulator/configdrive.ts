import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { agentErrors } from './agent-errors.ts';

export interface DecodedConfigDrive {
  /** Size of the uncompressed image (normally an ISO 9660 filesystem labelled config-2). */
  bytes: number;
  sha256: string;
  source: 'inline' | 'url';
  url?: string;
  /** The image itself, for the installed OS to read its meta and user data from. */
  image: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/**
 * IPA's partition_utils.get_configdrive: a URL is downloaded, then the content must be
 * base64 of a gzipped image (raw bytes are accepted only from a URL).
 */
export async function decodeConfigDrive(configdrive: string, nodeUuid: string): Promise<DecodedConfigDrive> {
  const isUrl = configdrive.startsWith('http://') || configdrive.startsWith('https://');
  let data: Buffer;
  if (isUrl) {
    let response: Response;
    try {
      response = await fetch(configdrive, { signal: AbortSignal.timeout(60_000) });
    } catch (error) {
      throw agentErrors.deployment(
        `Can't download the configdrive content for node ${nodeUuid} from '${configdrive}'. Reason: ${(error as Error).message}`,
      );
    }
    if (response.status >= 400) {
      throw agentErrors.deployment(
        `Can't download the configdrive content for node ${nodeUuid} from '${configdrive}'. ` +
          `Got status code ${response.status}, response body ${await response.text()}`,
      );
    }
    data = Buffer.from(await response.arrayBuffer());
  } else {
    data = Buffer.from(configdrive, 'utf8');
  }
  const text = data.toString('latin1');
  if (!BASE64.test(text)) {
    if (isUrl) return describe(data, 'url', configdrive);
    throw agentErrors.deployment(
      `Config drive for node ${nodeUuid} is not base64 encoded or the content is malformed. ` +
        'binascii.Error: Incorrect padding.',
    );
  }
  let image: Buffer;
  try {
    image = gunzipSync(Buffer.from(text, 'base64'));
  } catch (error) {
    throw agentErrors.deployment(
      `Encountered error while decompressing and writing config drive for node ${nodeUuid}. Error: ${(error as Error).message}`,
    );
  }
  return describe(image, isUrl ? 'url' : 'inline', isUrl ? configdrive : undefined);
}

function describe(image: Buffer, source: 'inline' | 'url', url: string | undefined): DecodedConfigDrive {
  const decoded: DecodedConfigDrive = {
    bytes: image.length,
    sha256: createHash('sha256').update(image).digest('hex'),
    source,
    image,
  };
  if (url !== undefined) decoded.url = url;
  return decoded;
}
