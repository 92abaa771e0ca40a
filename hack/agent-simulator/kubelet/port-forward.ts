import { connect } from 'node:net';
import type { SpdyStream } from './spdy-session.ts';

/** Where a pod's port is served on this machine, or why it cannot be reached. */
export type PodPortTarget = { host: string; port: number } | { refused: string };

export interface PortForwardOptions {
  /** `namespace/name`, for messages. */
  pod: string;
  resolve(port: number): PodPortTarget;
  /** How long the first stream of a request waits for its partner (kubelet: the stream creation timeout, 30 s). */
  pairTimeoutMs: number;
  onForwardError(message: string): void;
}

interface PendingRequest {
  error?: SpdyStream;
  data?: SpdyStream;
  timer: NodeJS.Timeout;
}

/**
 * Kubernetes' port-forward protocol on one SPDY connection: each request is an `error` stream
 * and a `data` stream with the same `requestid` and `port` headers. Once both are there the data
 * stream is joined to a TCP connection to the pod's port; a failure is written, as text, to the
 * error stream.
 */
export class PortForwardConnection {
  readonly #options: PortForwardOptions;
  readonly #pending = new Map<string, PendingRequest>();

  constructor(options: PortForwardOptions) {
    this.#options = options;
  }

  onStream(stream: SpdyStream): void {
    const requestId = stream.header('requestid') ?? '';
    const type = stream.header('streamtype');
    if (type !== 'error' && type !== 'data') {
      stream.destroy();
      return;
    }
    const request = this.#pending.get(requestId) ?? {
      timer: setTimeout(() => this.#abandon(requestId), this.#options.pairTimeoutMs),
    };
    request[type] = stream;
    this.#pending.set(requestId, request);
    if (request.error !== undefined && request.data !== undefined) {
      clearTimeout(request.timer);
      this.#pending.delete(requestId);
      this.#forward(request.error, request.data);
    }
  }

  /** Every stream of the connection is gone (it closed): drop the half-made requests. */
  close(): void {
    for (const requestId of [...this.#pending.keys()]) this.#abandon(requestId);
  }

  #abandon(requestId: string): void {
    const request = this.#pending.get(requestId);
    if (request === undefined) return;
    clearTimeout(request.timer);
    this.#pending.delete(requestId);
    request.error?.destroy();
    request.data?.destroy();
  }

  #forward(errorStream: SpdyStream, dataStream: SpdyStream): void {
    // The client may close its side of the error stream at once; it still reads what we write.
    errorStream.resume();
    const portText = dataStream.header('port') ?? '';
    let failed = false;
    const fail = (message: string) => {
      if (failed) return;
      failed = true;
      const text = `error forwarding port ${portText} to pod ${this.#options.pod}: ${message}`;
      this.#options.onForwardError(text);
      if (!errorStream.destroyed && !errorStream.writableEnded) errorStream.end(text);
      if (!dataStream.destroyed && !dataStream.writableEnded) dataStream.end();
    };
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
      fail(`invalid port header "${portText}"`);
      return;
    }
    const target = this.#options.resolve(port);
    if ('refused' in target) {
      fail(target.refused);
      return;
    }
    const socket = connect({ host: target.host, port: target.port });
    socket.on('error', (error) => {
      fail(`dial tcp ${target.host}:${target.port}: ${error.message}`);
      socket.destroy();
    });
    socket.once('connect', () => {
      socket.pipe(dataStream);
      dataStream.pipe(socket);
    });
    dataStream.once('close', () => {
      socket.destroy();
      if (!errorStream.destroyed && !errorStream.writableEnded) errorStream.end();
    });
  }
}
