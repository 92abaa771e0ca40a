import { Duplex } from 'node:stream';
import { ControlType, FLAG_FIN, FrameReader, MAX_DATA_FRAME_BYTES, RstStatus, controlFrame, dataFrame, streamIdAndWord, streamIdOf,
  type SpdyFrame } from './spdy-frames.ts';
import { HeaderBlockReader, HeaderBlockWriter, type SpdyHeaders } from './spdy-header-block.ts';

/** One stream the peer opened: its data in and out as a Duplex; ending it sends FIN, destroying it before that sends RST_STREAM. */
export class SpdyStream extends Duplex {
  readonly id: number;
  readonly headers: SpdyHeaders;
  readonly #session: SpdyServerSession;
  #resetByPeer = false;

  constructor(options: { id: number; headers: SpdyHeaders; session: SpdyServerSession }) {
    super({ allowHalfOpen: true });
    this.id = options.id;
    this.headers = options.headers;
    this.#session = options.session;
  }

  header(name: string): string | undefined {
    return this.headers.get(name.toLowerCase())?.[0];
  }

  override _read(): void {
    // Data is pushed as frames arrive: SPDY/3 flow control is not used by Kubernetes' peers.
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#session.sendData(this.id, chunk);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#session.sendFin(this.id);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const finished = this.readableEnded && this.writableFinished;
    this.#session.forget(this.id, { reset: !finished && !this.#resetByPeer });
    callback(error);
  }

  /** The peer sent RST_STREAM: nothing more is read or written. */
  resetByPeer(): void {
    this.#resetByPeer = true;
    this.destroy();
  }
}

/**
 * The server side of a SPDY/3.1 connection after an HTTP upgrade, as a kubelet runs it for
 * port-forward: the peer opens streams (SYN_STREAM), each is answered at once (SYN_REPLY with no
 * headers) and handed to `onStream`; PINGs are echoed; SETTINGS and WINDOW_UPDATE are read and
 * ignored. A protocol error ends the connection.
 */
export class SpdyServerSession {
  readonly #socket: Duplex;
  readonly #onStream: (stream: SpdyStream) => void;
  readonly #onError: (error: Error) => void;
  readonly #frames = new FrameReader();
  readonly #headersIn = new HeaderBlockReader();
  readonly #headersOut = new HeaderBlockWriter();
  readonly #streams = new Map<number, SpdyStream>();
  #closed = false;

  constructor(options: { socket: Duplex; onStream: (stream: SpdyStream) => void; onError: (error: Error) => void }) {
    this.#socket = options.socket;
    this.#onStream = options.onStream;
    this.#onError = options.onError;
    this.#socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    this.#socket.on('error', () => this.#close());
    this.#socket.on('close', () => this.#close());
    this.#socket.on('end', () => this.#close());
  }

  /** Bytes that came with the upgrade request, before the socket was handed over. */
  receiveInitial(head: Buffer): void {
    if (head.length > 0) this.#receive(head);
  }

  sendData(streamId: number, data: Buffer): void {
    for (let offset = 0; offset < data.length; offset += MAX_DATA_FRAME_BYTES) {
      this.#send(dataFrame(streamId, 0, data.subarray(offset, offset + MAX_DATA_FRAME_BYTES)));
    }
  }

  sendFin(streamId: number): void {
    this.#send(dataFrame(streamId, FLAG_FIN, Buffer.alloc(0)));
  }

  forget(streamId: number, options: { reset: boolean }): void {
    if (this.#streams.delete(streamId) && options.reset) {
      this.#send(controlFrame(ControlType.rstStream, 0, streamIdAndWord(streamId, RstStatus.cancel)));
    }
  }

  #receive(chunk: Buffer): void {
    if (this.#closed) return;
    try {
      for (const frame of this.#frames.push(chunk)) this.#handle(frame);
    } catch (error) {
      this.#onError(error as Error);
      this.#close();
    }
  }

  #handle(frame: SpdyFrame): void {
    if (!frame.control) {
      const stream = this.#streams.get(frame.streamId);
      if (stream === undefined) {
        this.#send(controlFrame(ControlType.rstStream, 0, streamIdAndWord(frame.streamId, RstStatus.invalidStream)));
        return;
      }
      if (frame.data.length > 0) stream.push(frame.data);
      if ((frame.flags & FLAG_FIN) !== 0) stream.push(null);
      return;
    }
    switch (frame.type) {
      case ControlType.synStream:
        this.#opened(frame.payload, frame.flags);
        return;
      case ControlType.headers:
        // Decoded only to keep the peer's zlib stream in step; no header a port-forward reads comes late.
        this.#headersIn.decode(frame.payload.subarray(4));
        return;
      case ControlType.rstStream:
        this.#streams.get(streamIdOf(frame.payload))?.resetByPeer();
        return;
      case ControlType.ping:
        this.#send(controlFrame(ControlType.ping, 0, frame.payload));
        return;
      case ControlType.goAway:
        this.#close();
        return;
      default:
        // SETTINGS, WINDOW_UPDATE and anything newer: nothing to do for a port-forward.
        return;
    }
  }

  #opened(payload: Buffer, flags: number): void {
    if (payload.length < 10) throw new Error('SPDY SYN_STREAM too short');
    const id = streamIdOf(payload);
    // stream id, associated stream id, priority, slot; then the header block.
    const headers = this.#headersIn.decode(payload.subarray(10));
    if (this.#streams.has(id)) throw new Error(`SPDY stream ${id} opened twice`);
    const stream = new SpdyStream({ id, headers, session: this });
    // A stream's errors (a write after the peer reset it) only end that stream; the peer sees the reset.
    stream.on('error', () => {});
    this.#streams.set(id, stream);
    const reply = Buffer.alloc(4);
    reply.writeUInt32BE(id & 0x7fffffff);
    this.#send(controlFrame(ControlType.synReply, 0, Buffer.concat([reply, this.#headersOut.encode(new Map())])));
    if ((flags & FLAG_FIN) !== 0) stream.push(null);
    this.#onStream(stream);
  }

  #send(frame: Buffer): void {
    if (!this.#closed && this.#socket.writable) this.#socket.write(frame);
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const stream of [...this.#streams.values()]) stream.resetByPeer();
    this.#streams.clear();
    this.#socket.destroy();
  }
}
