/** SPDY/3 framing (draft-mbelshe-httpbis-spdy-00 section 2.2): what a port-forward session needs. */

export const SPDY_VERSION = 3;

export const ControlType = {
  synStream: 1,
  synReply: 2,
  rstStream: 3,
  settings: 4,
  ping: 6,
  goAway: 7,
  headers: 8,
  windowUpdate: 9,
} as const;

export const FLAG_FIN = 0x01;

/** RST_STREAM status codes used here. */
export const RstStatus = { protocolError: 1, invalidStream: 2, cancel: 5 } as const;

export type SpdyFrame =
  | { control: true; type: number; flags: number; payload: Buffer }
  | { control: false; streamId: number; flags: number; data: Buffer };

const FRAME_HEADER_BYTES = 8;
const MAX_LENGTH = 0xffffff;
/** What one DATA frame carries at most when we send. */
export const MAX_DATA_FRAME_BYTES = 16 * 1024;

export function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  if (payload.length > MAX_LENGTH) throw new Error(`SPDY control frame of ${payload.length} bytes is too long`);
  const header = Buffer.alloc(FRAME_HEADER_BYTES);
  header.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  header.writeUInt16BE(type, 2);
  header.writeUInt32BE(((flags & 0xff) << 24 | payload.length) >>> 0, 4);
  return Buffer.concat([header, payload]);
}

export function dataFrame(streamId: number, flags: number, data: Buffer): Buffer {
  const header = Buffer.alloc(FRAME_HEADER_BYTES);
  header.writeUInt32BE(streamId & 0x7fffffff, 0);
  header.writeUInt32BE(((flags & 0xff) << 24 | data.length) >>> 0, 4);
  return Buffer.concat([header, data]);
}

/** A 31-bit stream id followed by a 32-bit word (RST_STREAM's status, WINDOW_UPDATE's delta). */
export function streamIdAndWord(streamId: number, word: number): Buffer {
  const payload = Buffer.alloc(8);
  payload.writeUInt32BE(streamId & 0x7fffffff, 0);
  payload.writeUInt32BE(word >>> 0, 4);
  return payload;
}

export function streamIdOf(payload: Buffer): number {
  if (payload.length < 4) throw new Error('SPDY control frame too short for a stream id');
  return payload.readUInt32BE(0) & 0x7fffffff;
}

/** Cuts a byte stream into frames; bytes of an incomplete frame wait for the next chunk. */
export class FrameReader {
  #pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): SpdyFrame[] {
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const frames: SpdyFrame[] = [];
    while (this.#pending.length >= FRAME_HEADER_BYTES) {
      const first = this.#pending.readUInt32BE(0);
      const flagsAndLength = this.#pending.readUInt32BE(4);
      const length = flagsAndLength & MAX_LENGTH;
      if (this.#pending.length < FRAME_HEADER_BYTES + length) break;
      const body = this.#pending.subarray(FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + length);
      const flags = flagsAndLength >>> 24;
      if ((first & 0x80000000) !== 0) {
        const version = (first >>> 16) & 0x7fff;
        if (version !== SPDY_VERSION) throw new Error(`unsupported SPDY version ${version}`);
        frames.push({ control: true, type: first & 0xffff, flags, payload: body });
      } else {
        frames.push({ control: false, streamId: first & 0x7fffffff, flags, data: body });
      }
      this.#pending = this.#pending.subarray(FRAME_HEADER_BYTES + length);
    }
    return frames;
  }
}
