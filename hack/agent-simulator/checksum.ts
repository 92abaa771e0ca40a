import { getHashes } from 'node:crypto';
import { basename } from 'node:path';
import { agentErrors } from './agent-errors.ts';
import type { ImageInfo } from './image-info.ts';

export interface ExpectedChecksum {
  /** A node:crypto hash name. */
  algorithm: string;
  value: string;
  /** Where the expected value came from. */
  source: 'os_hash_value' | 'checksum' | 'checksum-url';
  checksumUrl?: string;
}

export interface ChecksumOptions {
  /** Ironic's lookup config `agent_md5_checksum_enable`. */
  md5Allowed: boolean;
  /** Fetches a checksum file; failures must be IPA-style AgentErrors. */
  fetchText: (url: string) => Promise<string>;
}

export function isChecksumUrl(checksum: string): boolean {
  return checksum.startsWith('http://') || checksum.startsWith('https://');
}

// The same patterns IPA (standby._fetch_checksum) and Ironic (checksum_utils) use.
const CHECKSUM_MATCHERS = [
  /^([a-fA-F\d]{32})\s/, /\s([a-fA-F\d]{32})$/,
  /^([a-fA-F\d]{64})\s/, /\s([a-fA-F\d]{64})$/,
  /^([a-fA-F\d]{128})\s/, /\s([a-fA-F\d]{128})$/,
];
const CHECKSUM_ONLY_MATCHERS = [/^([a-fA-F\d]{32})$/, /^([a-fA-F\d]{64})$/, /^([a-fA-F\d]{128})$/];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Picks the checksum for the image out of a checksum file: a file holding just one
 * checksum, or `<hash>  <name>` / `<hash> *<name>` / `... (<name>) = <hash>` lines.
 */
export function checksumFromFile(text: string, imageUrl: string, checksumUrl: string): string {
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  if (lines.length === 0) throw agentErrors.imageDownload(checksumUrl, 'Empty checksum file');
  const [onlyLine] = lines;
  if (lines.length === 1 && onlyLine !== undefined && !onlyLine.includes(' ')) {
    for (const matcher of CHECKSUM_ONLY_MATCHERS) {
      const found = matcher.exec(onlyLine);
      if (found?.[1] !== undefined) return found[1];
    }
    throw agentErrors.imageDownload(checksumUrl, `Invalid checksum file (No valid checksum found) ${JSON.stringify(lines)}`);
  }
  const expectedName = escapeRegExp(basename(new URL(imageUrl).pathname));
  const nameMatchers = [new RegExp(`\\s[*]?${expectedName}$`), new RegExp(`\\s\\(${expectedName}\\)\\s`)];
  for (const line of lines) {
    if (line.startsWith('#')) continue;
    if (!nameMatchers.some((matcher) => matcher.test(line))) continue;
    for (const matcher of CHECKSUM_MATCHERS) {
      const found = matcher.exec(line);
      if (found?.[1] !== undefined) return found[1];
    }
  }
  throw agentErrors.imageDownload(checksumUrl, `Checksum file does not contain name ${basename(new URL(imageUrl).pathname)}`);
}

/** IPA's _get_algorithm_by_length: SHA-2 by hex length, MD5 only when Ironic allows it. */
export function algorithmByLength(checksum: string, md5Allowed: boolean): string {
  switch (checksum.length) {
    case 128:
      return 'sha512';
    case 64:
      return 'sha256';
    case 32:
      if (!md5Allowed) throw new Error('MD5 support is disabled, and support will be removed in a 2024 version of Ironic.');
      return 'md5';
    default:
      throw new Error(
        'Unable to identify checksum algorithm used, and a value is not specified in the os_hash_algo setting.',
      );
  }
}

/** Python hashlib names (what Glance/Ironic send) to node:crypto names; undefined when node lacks it. */
export function nodeHashName(pythonName: string): string | undefined {
  const aliases: Record<string, string> = {
    sha3_224: 'sha3-224', sha3_256: 'sha3-256', sha3_384: 'sha3-384', sha3_512: 'sha3-512',
    sha512_224: 'sha512-224', sha512_256: 'sha512-256', blake2b: 'blake2b512', blake2s: 'blake2s256',
  };
  const name = aliases[pythonName.toLowerCase()] ?? pythonName.toLowerCase();
  return getHashes().includes(name) ? name : undefined;
}

/**
 * Decides which hash to compute and what it must equal, in IPA's order of preference
 * (ImageDownload.__init__): os_hash_algo/os_hash_value, then a checksum URL, then a
 * plain checksum whose length gives the algorithm.
 */
export async function resolveExpectedChecksum(info: ImageInfo, options: ChecksumOptions): Promise<ExpectedChecksum> {
  const imageUrl = info.urls[0] ?? '';
  const resolve = async (value: string): Promise<{ value: string; checksumUrl?: string }> => {
    if (!isChecksumUrl(value)) return { value };
    return { value: checksumFromFile(await options.fetchText(value), imageUrl, value), checksumUrl: value };
  };
  const osHashAlgorithm = info.os_hash_algo ? nodeHashName(info.os_hash_algo) : undefined;
  if (osHashAlgorithm !== undefined && info.os_hash_value) {
    const resolved = await resolve(info.os_hash_value);
    return { algorithm: osHashAlgorithm, source: 'os_hash_value', ...resolved };
  }
  if (info.checksum && isChecksumUrl(info.checksum)) {
    const resolved = await resolve(info.checksum);
    return { algorithm: algorithmByLength(resolved.value, options.md5Allowed), source: 'checksum-url', ...resolved };
  }
  if (info.checksum) {
    let algorithm: string;
    try {
      algorithm = algorithmByLength(info.checksum, options.md5Allowed);
    } catch (error) {
      throw agentErrors.generic(
        `Unable to proceed with image ${info.id} as the checksum indicator has been used but the algorithm ` +
          `could not be identified. Error: ${(error as Error).message}`,
      );
    }
    return { algorithm, value: info.checksum, source: 'checksum' };
  }
  throw agentErrors.generic(
    `Unable to verify image ${info.id} with available checksums. Please make sure the specified 'os_hash_algo' ` +
      `(currently ${info.os_hash_algo ?? 'None'}) is supported by this ramdisk, or provide a md5 checksum via the ` +
      "'checksum' field",
  );
}
