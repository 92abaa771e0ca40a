import { describe, expect, it } from '@jest/globals';
import { constants, createDeflate, inflateSync } from 'node:zlib';
import { HeaderBlockReader, HeaderBlockWriter, SPDY3_DICTIONARY, decodeNameValueBlock, encodeNameValueBlock } from './spdy-header-block.ts';

/** A peer's compressor as Go's SPDY framer runs it: one zlib stream with the dictionary, sync-flushed after each block. */
function dictionaryCompressor(): (block: Buffer) => Promise<Buffer> {
  const deflate = createDeflate({ dictionary: SPDY3_DICTIONARY });
  const output: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => output.push(chunk));
  return (block) => new Promise((resolve) => {
    deflate.write(block);
    deflate.flush(constants.Z_SYNC_FLUSH, () => setImmediate(() => resolve(Buffer.concat(output.splice(0)))));
  });
}

describe('SPDY/3 header blocks', () => {
  it('builds the specification\'s 1,423-byte dictionary', () => {
    expect(SPDY3_DICTIONARY.length).toBe(1423);
    expect(SPDY3_DICTIONARY.subarray(0, 11)).toEqual(Buffer.from([0, 0, 0, 7, ...Buffer.from('options')]));
    expect(SPDY3_DICTIONARY.subarray(-6).toString('latin1')).toBe('enq=0.');
  });

  it('encodes name/value pairs with multiple values joined by NUL', () => {
    const headers = new Map([['port', ['2379']], ['x-multi', ['a', 'b']]]);
    expect(decodeNameValueBlock(encodeNameValueBlock(headers))).toEqual(headers);
    expect(() => decodeNameValueBlock(Buffer.from([0, 0, 0, 1, 0, 0, 0, 9]))).toThrow('truncated');
  });

  it('writes blocks a zlib reader decodes as one continuing stream', () => {
    const writer = new HeaderBlockWriter();
    const first = writer.encode(new Map());
    const second = writer.encode(new Map([['streamtype', ['data']]]));
    // Each ends as a sync flush does (an empty stored block), or a streaming inflater holds the bytes back.
    expect(first.subarray(-5)).toEqual(Buffer.from([0, 0, 0, 0xff, 0xff]));
    expect(second.subarray(-5)).toEqual(Buffer.from([0, 0, 0, 0xff, 0xff]));
    const stream = inflateSync(Buffer.concat([first, second]), { finishFlush: constants.Z_SYNC_FLUSH });
    const firstBlock = encodeNameValueBlock(new Map());
    expect(stream.subarray(0, firstBlock.length)).toEqual(firstBlock);
    expect(decodeNameValueBlock(stream.subarray(firstBlock.length))).toEqual(new Map([['streamtype', ['data']]]));
  });

  it('reads successive blocks of a peer compressing with the dictionary', async () => {
    const compress = dictionaryCompressor();
    const reader = new HeaderBlockReader();
    const error = new Map([['streamtype', ['error']], ['port', ['2379']], ['requestid', ['0']]]);
    const data = new Map([['streamtype', ['data']], ['port', ['2379']], ['requestid', ['0']]]);
    expect(reader.decode(await compress(encodeNameValueBlock(error)))).toEqual(error);
    expect(reader.decode(await compress(encodeNameValueBlock(data)))).toEqual(data);
  });
});
