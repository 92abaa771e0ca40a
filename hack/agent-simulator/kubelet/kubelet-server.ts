import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '../log.ts';
import { PortForwardConnection, type PodPortTarget } from './port-forward.ts';
import { selfSignedLoopbackCertificate } from './serving-certificate.ts';
import { SpdyServerSession } from './spdy-session.ts';

const PORT_FORWARD_PATH = /^\/portForward\/([^/]+)\/([^/]+)(?:\/[^/]+)?$/;
const PORT_FORWARD_PROTOCOL = 'portforward.k8s.io';
/** kubelet's stream creation timeout: how long one stream of a port-forward request waits for the other. */
const PAIR_TIMEOUT_MS = 30_000;

interface ServedPod {
  node: string;
  resolve(port: number): PodPortTarget;
}

/**
 * The streaming endpoint of the simulated servers' kubelets: what the API server calls for
 * `pods/portforward` (Cluster API's control plane provider reaches etcd and the API server of
 * each control plane node this way). One HTTPS listener on loopback stands for every simulated
 * kubelet: each Node advertises its port, and a pod's name says which server's process a port
 * leads to.
 */
export class SimulatedKubeletServer {
  readonly #server: Server;
  readonly #logger: Logger;
  readonly #pods = new Map<string, ServedPod>();
  readonly #sockets = new Set<Socket>();

  private constructor(server: Server, logger: Logger) {
    this.#server = server;
    this.#logger = logger;
    server.on('request', (request: IncomingMessage, response: ServerResponse) => this.#request(request, response));
    server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => this.#upgrade(request, socket, head));
  }

  static async start(options: { host: string; port: number; logger: Logger }): Promise<SimulatedKubeletServer> {
    const credentials = await selfSignedLoopbackCertificate('simulated-kubelet');
    const kubelet = new SimulatedKubeletServer(createServer(credentials), options.logger);
    await new Promise<void>((resolve, reject) => {
      kubelet.#server.once('error', reject);
      kubelet.#server.listen(options.port, options.host, () => resolve());
    });
    return kubelet;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** The pod runs on `node`; `resolve` says where each of its ports is served. */
  servePod(pod: { namespace: string; name: string; node: string }, resolve: (port: number) => PodPortTarget): void {
    this.#pods.set(`${pod.namespace}/${pod.name}`, { node: pod.node, resolve });
  }

  /** The node's kubelet is gone: none of its pods can be reached. */
  forgetNode(node: string): void {
    for (const [key, pod] of this.#pods) if (pod.node === node) this.#pods.delete(key);
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #request(request: IncomingMessage, response: ServerResponse): void {
    const path = new URL(request.url ?? '/', 'https://kubelet').pathname;
    if (path === '/healthz') {
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    } else if (PORT_FORWARD_PATH.test(path)) {
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Upgrade request required');
    } else {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('404 page not found');
    }
  }

  #upgrade(request: IncomingMessage, socket: Socket, head: Buffer): void {
    const refuse = (status: string, message: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(message)}\r\nConnection: close\r\n\r\n${message}`);
    };
    const match = PORT_FORWARD_PATH.exec(new URL(request.url ?? '/', 'https://kubelet').pathname);
    if (match === null) return refuse('404 Not Found', '404 page not found');
    if (!(request.headers.upgrade ?? '').toLowerCase().split(',').map((value) => value.trim()).includes('spdy/3.1')) {
      return refuse('400 Bad Request', 'unable to upgrade: only SPDY/3.1 is served');
    }
    const offered = (request.headers['x-stream-protocol-version'] ?? '').toString().split(',').map((value) => value.trim()).filter(Boolean);
    if (offered.length > 0 && !offered.includes(PORT_FORWARD_PROTOCOL)) {
      return refuse('403 Forbidden', `unable to upgrade: unable to negotiate protocol: client supports ${offered.join(', ')}, server supports ${PORT_FORWARD_PROTOCOL}`);
    }
    const pod = `${decodeURIComponent(match[1]!)}/${decodeURIComponent(match[2]!)}`;
    const served = this.#pods.get(pod);
    if (served === undefined) return refuse('404 Not Found', `pod ${pod} not found on this kubelet`);
    socket.write(['HTTP/1.1 101 Switching Protocols', 'Connection: Upgrade', 'Upgrade: SPDY/3.1',
      `X-Stream-Protocol-Version: ${PORT_FORWARD_PROTOCOL}`, '', ''].join('\r\n'));
    this.#sockets.add(socket);
    const forwarding = new PortForwardConnection({
      pod,
      pairTimeoutMs: PAIR_TIMEOUT_MS,
      // Looked up per request: the pod may have gone since the connection was made.
      resolve: (port) => this.#pods.get(pod)?.resolve(port) ?? { refused: `pod ${pod} is gone` },
      onForwardError: (message) => this.#logger.info('port-forward failed', { pod, error: message }),
    });
    const session = new SpdyServerSession({
      socket,
      onStream: (stream) => forwarding.onStream(stream),
      onError: (error) => this.#logger.warn('port-forward connection failed', { pod, error: error.message }),
    });
    socket.once('close', () => {
      this.#sockets.delete(socket);
      forwarding.close();
    });
    session.receiveInitial(head);
    this.#logger.debug('port-forward connection', { pod });
  }
}
