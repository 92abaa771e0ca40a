import { constants, inflateSync } from 'node:zlib';

/**
 * SPDY/3's zlib dictionary for header blocks (draft-mbelshe-httpbis-spdy-00 section 2.6.10.1):
 * each common header name as a 32-bit length and its bytes, then a run of common values.
 */
const DICTIONARY_NAMES = [
  'options', 'head', 'post', 'put', 'delete', 'trace', 'accept', 'accept-charset', 'accept-encoding', 'accept-language',
  'accept-ranges', 'age', 'allow', 'authorization', 'cache-control', 'connection', 'content-base', 'content-encoding',
  'content-language', 'content-length', 'content-location', 'content-md5', 'content-range', 'content-type', 'date', 'etag',
  'expect', 'expires', 'from', 'host', 'if-match', 'if-modified-since', 'if-none-match', 'if-range', 'if-unmodified-since',
  'last-modified', 'location', 'max-forwards', 'pragma', 'proxy-authenticate', 'proxy-authorization', 'range', 'referer',
  'retry-after', 'server', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'user-agent', 'vary', 'via', 'warning',
  'www-authenticate', 'method', 'get', 'status', '200 OK', 'version', 'HTTP/1.1', 'url', 'public', 'set-cookie', 'keep-alive',
  'origin',
];
const DICTIONARY_TAIL = [
  '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505',
  '203 Non-Authoritative Information', '204 No Content', '301 Moved Permanently', '400 Bad Request', '401 Unauthorized',
  '403 Forbidden', '404 Not Found', '500 Internal Server Error', '501 Not Implemented', '503 Service Unavailable',
  'Jan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMT',
  'chunked,text/html,image/png,image/jpg,image/gif,application/xml,application/xhtml+xml,text/plain,text/javascript,public',
  'privatemax-age=gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.',
].join('');

export const SPDY3_DICTIONARY: Buffer = Buffer.concat([
  ...DICTIONARY_NAMES.map((name) => lengthPrefixed(Buffer.from(name, 'latin1'))),
  Buffer.from(DICTIONARY_TAIL, 'latin1'),
]);

/** SPDY headers: lower-case names, each with one or more values. */
export type SpdyHeaders = Map<string, string[]>;

function lengthPrefixed(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** The uncompressed name/value block: a pair count, then each name and its values joined by NUL, all 32-bit length prefixed. */
export function encodeNameValueBlock(headers: SpdyHeaders): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(headers.size);
  const parts: Buffer[] = [count];
  for (const [name, values] of headers) {
    parts.push(lengthPrefixed(Buffer.from(name.toLowerCase(), 'utf8')), lengthPrefixed(Buffer.from(values.join('\0'), 'utf8')));
  }
  return Buffer.concat(parts);
}

export function decodeNameValueBlock(block: Buffer): SpdyHeaders {
  const headers: SpdyHeaders = new Map();
  let offset = 0;
  const take = (): Buffer => {
    if (offset + 4 > block.length) throw new Error('truncated SPDY header block');
    const length = block.readUInt32BE(offset);
    offset += 4;
    if (offset + length > block.length) throw new Error('truncated SPDY header block');
    const bytes = block.subarray(offset, offset + length);
    offset += length;
    return bytes;
  };
  if (block.length < 4) throw new Error('truncated SPDY header block');
  const count = block.readUInt32BE(0);
  offset = 4;
  for (let index = 0; index < count; index++) {
    const name = take().toString('utf8');
    const values = take().toString('utf8').split('\0');
    headers.set(name, [...(headers.get(name) ?? []), ...values]);
  }
  return headers;
}

const MAX_STORED_BLOCK = 0xffff;

/** BFINAL 0, BTYPE 00 (stored), padded to the byte; then LEN and its one's complement, little-endian. */
function storedBlockHeader(length: number): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt16LE(length, 1);
  header.writeUInt16LE(~length & 0xffff, 3);
  return header;
}

/**
 * Each direction of a SPDY session is one zlib stream that runs across all its header blocks.
 * The blocks we send are stored (uncompressed) deflate blocks in that stream, each followed by
 * the empty one a sync flush writes: any zlib reader decodes them, and no compressor state has
 * to be kept. A zlib header without a preset
 * dictionary is valid SPDY, which only requires the dictionary when the peer's header asks for it.
 */
export class HeaderBlockWriter {
  #started = false;

  encode(headers: SpdyHeaders): Buffer {
    const block = encodeNameValueBlock(headers);
    const parts: Buffer[] = [];
    if (!this.#started) {
      // CMF 0x78 (deflate, 32K window), FLG 0x01: no dictionary, lowest level, check bits valid.
      parts.push(Buffer.from([0x78, 0x01]));
      this.#started = true;
    }
    for (let offset = 0; offset < block.length; offset += MAX_STORED_BLOCK) {
      const chunk = block.subarray(offset, offset + MAX_STORED_BLOCK);
      parts.push(storedBlockHeader(chunk.length), chunk);
    }
    // An empty stored block ends each header block, as zlib's sync flush does: inflaters (Go's
    // among them) hand out a stored block's bytes only once the next block begins.
    parts.push(storedBlockHeader(0));
    return Buffer.concat(parts);
  }
}

/**
 * The peer's zlib stream, decoded with SPDY's dictionary. Node's zlib has no synchronous
 * streaming inflate, so every block inflates the stream so far and keeps what is new: a
 * port-forward session carries a few small blocks, so this stays cheap.
 */
export class HeaderBlockReader {
  #compressed: Buffer = Buffer.alloc(0);
  #produced = 0;

  decode(compressed: Buffer): SpdyHeaders {
    this.#compressed = Buffer.concat([this.#compressed, compressed]);
    const inflated = inflateSync(this.#compressed, { dictionary: SPDY3_DICTIONARY, finishFlush: constants.Z_SYNC_FLUSH });
    const block = inflated.subarray(this.#produced);
    this.#produced = inflated.length;
    return decodeNameValueBlock(block);
  }
}
