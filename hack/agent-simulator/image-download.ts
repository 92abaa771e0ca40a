import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentError, agentErrors } from './agent-errors.ts';
import { resolveExpectedChecksum, type ExpectedChecksum } from './checksum.ts';
import { downloadText, openDownload } from './http-download.ts';
import type { ImageInfo } from './image-info.ts';

export interface ImageDownloadOptions {
  md5Allowed: boolean;
  /** IPA's image_download_connection_retries: extra attempts after a failed (non-fatal) download. */
  retries: number;
  retryIntervalMs: number;
  onRetry?: (attempt: number, error: AgentError) => void;
}

export interface DownloadedImage {
  url: string;
  bytes: number;
  contentLength: number | null;
  checksum: ExpectedChecksum & { actual: string };
}

/** Where IPA caches the image before writing it (only used in messages: nothing is stored). */
function imageLocation(info: ImageInfo): string {
  return `/tmp/${info.id}`;
}

/**
 * IPA's `image_request_authorization`: the Authorization header Ironic used with the image's
 * server (an OCI registry), base64-encoded by Ironic, sent as is with the download.
 */
export function requestAuthorization(info: ImageInfo): string | undefined {
  const encoded = info.image_request_authorization;
  return typeof encoded === 'string' && encoded !== '' ? Buffer.from(encoded, 'base64').toString('utf8') : undefined;
}

/** Tries each URL like IPA: a 4xx stops everything, other failures move on to the next URL. */
async function openFirstWorkingUrl(info: ImageInfo): Promise<{ url: string; response: Response }> {
  const failures: string[] = [];
  const authorization = requestAuthorization(info);
  for (const url of info.urls) {
    try {
      return { url, response: await openDownload(url, info.id, { authorization }) };
    } catch (error) {
      if (error instanceof AgentError && !error.fatal) {
        failures.push(`URL: ${url}; Error: ${error.details}`);
        continue;
      }
      throw error;
    }
  }
  throw agentErrors.imageDownload(info.id, failures.join('\n '));
}

async function downloadOnce(info: ImageInfo, options: ImageDownloadOptions): Promise<DownloadedImage> {
  const expected = await resolveExpectedChecksum(info, {
    md5Allowed: options.md5Allowed,
    fetchText: (url) => downloadText(url, url),
  });
  const { url, response } = await openFirstWorkingUrl(info);
  const hash = createHash(expected.algorithm);
  let bytes = 0;
  try {
    if (response.body !== null) {
      for await (const chunk of response.body) {
        hash.update(chunk);
        bytes += chunk.byteLength;
      }
    }
  } catch (error) {
    throw agentErrors.imageDownload(info.id, `Unable to write image to ${imageLocation(info)}. Error: ${(error as Error).message}`);
  }
  const actual = hash.digest('hex');
  // Like IPA, a case-sensitive comparison against the hex digest.
  if (actual !== expected.value) {
    throw agentErrors.imageChecksum(imageLocation(info), info.id, expected.value, actual);
  }
  const length = response.headers.get('content-length');
  return { url, bytes, contentLength: length === null ? null : Number(length), checksum: { ...expected, actual } };
}

/**
 * Downloads and verifies the image as IPA's _download_image does, retrying download
 * and checksum failures but not fatal (4xx) ones. The bytes are hashed and dropped.
 */
export async function downloadAndVerifyImage(info: ImageInfo, options: ImageDownloadOptions): Promise<DownloadedImage> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await downloadOnce(info, options);
    } catch (error) {
      const retryable =
        error instanceof AgentError &&
        !error.fatal &&
        (error.type === 'ImageDownloadError' || error.type === 'ImageChecksumError');
      if (!retryable || attempt >= options.retries) throw error;
      options.onRetry?.(attempt + 1, error);
      await sleep(options.retryIntervalMs);
    }
  }
}
