import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { get as httpsGet } from 'node:https';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { connect, type TLSSocket } from 'node:tls';
import { silentLogger } from '../log.ts';
import { SimulatedKubeletServer } from './kubelet-server.ts';
import { ControlType, FLAG_FIN, FrameReader, RstStatus, controlFrame, dataFrame, streamIdAndWord, type SpdyFrame } from './spdy-frames.ts';
import { HeaderBlockReader, HeaderBlockWriter } from './spdy-header-block.ts';

/** The client end of a port-forward connection, as client-go's SPDY dialer drives it. */
class PortForwardClient {
  readonly frames: SpdyFrame[] = [];
  readonly #socket: TLSSocket;
  readonly #reader = new FrameReader();
  readonly #headersOut = new HeaderBlockWriter();
  readonly #headersIn = new HeaderBlockReader();
  #waiters: (() => void)[] = [];

  private constructor(socket: TLSSocket) {
    this.#socket = socket;
  }

  static async open(port: number, path: string): Promise<{ client?: PortForwardClient; statusLine: string; rest: string }> {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false });
    await new Promise<void>((resolve) => socket.once('secureConnect', () => resolve()));
    socket.write([`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: Upgrade', 'Upgrade: SPDY/3.1',
      'X-Stream-Protocol-Version: portforward.k8s.io', 'Content-Length: 0', '', ''].join('\r\n'));
    let received = Buffer.alloc(0);
    const headEnd = await new Promise<number>((resolve) => {
      const onData = (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        const end = received.indexOf('\r\n\r\n');
        if (end >= 0) {
          socket.off('data', onData);
          resolve(end + 4);
        }
      };
      socket.on('data', onData);
    });
    const head = received.subarray(0, headEnd).toString('latin1');
    const statusLine = head.split('\r\n')[0]!;
    if (!statusLine.includes(' 101 ')) {
      const rest = await new Promise<string>((resolve) => {
        let body = received.subarray(headEnd).toString('utf8');
        socket.on('data', (chunk: Buffer) => { body += chunk.toString('utf8'); });
        socket.once('close', () => resolve(body));
      });
      return { statusLine, rest };
    }
    const client = new PortForwardClient(socket);
    socket.on('data', (chunk: Buffer) => client.#receive(chunk));
    client.#receive(received.subarray(headEnd));
    return { client, statusLine, rest: head };
  }

  #receive(chunk: Buffer): void {
    for (const frame of this.#reader.push(chunk)) {
      if (frame.control && frame.type === ControlType.synReply) this.#headersIn.decode(frame.payload.subarray(4));
      this.frames.push(frame);
    }
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  async until(predicate: (frames: SpdyFrame[]) => boolean): Promise<void> {
    while (!predicate(this.frames)) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  openStream(id: number, headers: Record<string, string>, options: { fin?: boolean } = {}): void {
    const prefix = Buffer.alloc(10);
    prefix.writeUInt32BE(id, 0);
    const block = this.#headersOut.encode(new Map(Object.entries(headers).map(([name, value]) => [name, [value]])));
    this.#socket.write(controlFrame(ControlType.synStream, options.fin ? FLAG_FIN : 0, Buffer.concat([prefix, block])));
  }

  send(frame: Buffer): void {
    this.#socket.write(frame);
  }

  dataOf(streamId: number): string {
    return Buffer.concat(this.frames.flatMap((frame) => (!frame.control && frame.streamId === streamId ? [frame.data] : []))).toString('utf8');
  }

  finished(streamId: number): boolean {
    return this.frames.some((frame) => !frame.control && frame.streamId === streamId && (frame.flags & FLAG_FIN) !== 0);
  }

  close(): void {
    this.#socket.destroy();
  }
}

describe('the simulated kubelet port-forward', () => {
  let kubelet: SimulatedKubeletServer;
  let echo: Server;
  let echoPort: number;

  beforeAll(async () => {
    echo = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', () => resolve()));
    echoPort = (echo.address() as AddressInfo).port;
    kubelet = await SimulatedKubeletServer.start({ host: '127.0.0.1', port: 0, logger: silentLogger() });
    kubelet.servePod({ namespace: 'kube-system', name: 'etcd-cp-0', node: 'cp-0' },
      (port) => (port === 2379 ? { host: '127.0.0.1', port: echoPort } : { refused: 'connection refused' }));
  });

  afterAll(async () => {
    await kubelet.close();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  it('joins a data stream to the pod\'s port and answers every stream and ping', async () => {
    const { client, statusLine, rest } = await PortForwardClient.open(kubelet.port, '/portForward/kube-system/etcd-cp-0');
    expect(statusLine).toBe('HTTP/1.1 101 Switching Protocols');
    expect(rest).toContain('X-Stream-Protocol-Version: portforward.k8s.io');
    client!.openStream(1, { streamtype: 'error', port: '2379', requestid: '0' }, { fin: true });
    client!.openStream(3, { streamtype: 'data', port: '2379', requestid: '0' });
    client!.send(dataFrame(3, 0, Buffer.from('hello etcd')));
    const ping = Buffer.alloc(4);
    ping.writeUInt32BE(7);
    client!.send(controlFrame(ControlType.ping, 0, ping));
    await client!.until(() => client!.dataOf(3) === 'hello etcd');
    await client!.until((frames) => frames.some((frame) => frame.control && frame.type === ControlType.ping));
    const replies = client!.frames.filter((frame) => frame.control && frame.type === ControlType.synReply)
      .map((frame) => (frame.control ? frame.payload.readUInt32BE(0) : 0));
    expect(replies).toEqual([1, 3]);
    client!.send(dataFrame(3, FLAG_FIN, Buffer.alloc(0)));
    await client!.until(() => client!.finished(3));
    client!.close();
  });

  it('a stream the client resets ends alone: the connection keeps serving', async () => {
    const { client } = await PortForwardClient.open(kubelet.port, '/portForward/kube-system/etcd-cp-0');
    client!.openStream(1, { streamtype: 'error', port: '2379', requestid: '0' });
    client!.openStream(3, { streamtype: 'data', port: '2379', requestid: '0' });
    client!.send(dataFrame(3, 0, Buffer.from('first')));
    await client!.until(() => client!.dataOf(3) === 'first');
    client!.send(controlFrame(ControlType.rstStream, 0, streamIdAndWord(3, RstStatus.cancel)));
    client!.send(dataFrame(3, 0, Buffer.from('after the reset')));
    client!.openStream(5, { streamtype: 'error', port: '2379', requestid: '1' });
    client!.openStream(7, { streamtype: 'data', port: '2379', requestid: '1' });
    client!.send(dataFrame(7, 0, Buffer.from('second')));
    await client!.until(() => client!.dataOf(7) === 'second');
    // Data for the reset stream is answered with RST_STREAM INVALID_STREAM, never echoed.
    await client!.until((frames) => frames.some((frame) => frame.control && frame.type === ControlType.rstStream
      && frame.payload.readUInt32BE(0) === 3 && frame.payload.readUInt32BE(4) === RstStatus.invalidStream));
    expect(client!.dataOf(3)).toBe('first');
    client!.close();
  });

  it('writes why on the error stream when the pod does not serve the port', async () => {
    const { client } = await PortForwardClient.open(kubelet.port, '/portForward/kube-system/etcd-cp-0');
    client!.openStream(1, { streamtype: 'error', port: '2380', requestid: '0' });
    client!.openStream(3, { streamtype: 'data', port: '2380', requestid: '0' });
    await client!.until(() => client!.finished(1) && client!.finished(3));
    expect(client!.dataOf(1)).toBe('error forwarding port 2380 to pod kube-system/etcd-cp-0: connection refused');
    client!.close();
  });

  it('refuses pods it does not run and requests that are no SPDY upgrade', async () => {
    kubelet.servePod({ namespace: 'kube-system', name: 'kube-apiserver-cp-1', node: 'cp-1' }, () => ({ refused: 'never' }));
    kubelet.forgetNode('cp-1');
    const unknown = await PortForwardClient.open(kubelet.port, '/portForward/kube-system/kube-apiserver-cp-1');
    expect(unknown.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(unknown.rest).toBe('pod kube-system/kube-apiserver-cp-1 not found on this kubelet');
    const plain = await new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
      httpsGet(`https://127.0.0.1:${kubelet.port}/portForward/kube-system/etcd-cp-0`, { rejectUnauthorized: false }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => { body += chunk.toString('utf8'); });
        response.on('end', () => resolve({ status: response.statusCode, body }));
      }).on('error', reject);
    });
    expect(plain).toEqual({ status: 400, body: 'Upgrade request required' });
  });
});
