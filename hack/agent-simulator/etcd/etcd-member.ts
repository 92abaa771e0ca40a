import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../log.ts';
import { issueEtcdCertificates, type EtcdCa } from './etcd-certificates.ts';
import { addMember, clientTls, etcdCall, type EtcdClientTls } from './etcd-client.ts';

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

export interface EtcdMemberOptions {
  binary: string;
  /** The member's name: its Node's, as kubeadm names it (and KCP matches members to Nodes by it). */
  node: string;
  ca: EtcdCa;
  /** `new`: the first member (`kubeadm init`); `join`: added through a running member (`kubeadm join --control-plane`). */
  cluster: { kind: 'new' } | { kind: 'join'; memberClientUrls: string[] };
  logger: Logger;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The etcd kubeadm runs as a static pod on a control plane node with stacked etcd: a real etcd
 * process on loopback, its client port serving TLS from the cluster's etcd CA and asking
 * clients for a certificate from it (what KCP's etcd client presents). Peers talk plain HTTP:
 * nothing outside the members sees that traffic.
 */
export class EtcdMember {
  readonly clientUrl: string;
  readonly #process: ChildProcess;
  readonly #dir: string;
  readonly #exited: Promise<void>;

  private constructor(options: { clientUrl: string; process: ChildProcess; dir: string; exited: Promise<void> }) {
    this.clientUrl = options.clientUrl;
    this.#process = options.process;
    this.#dir = options.dir;
    this.#exited = options.exited;
  }

  static async start(options: EtcdMemberOptions): Promise<EtcdMember> {
    const dir = await mkdtemp(join(tmpdir(), `simulated-etcd-${options.node}-`));
    try {
      const certificates = await issueEtcdCertificates({ dir, ca: options.ca, node: options.node });
      const tls = clientTls(certificates);
      const clientUrl = `https://127.0.0.1:${await freePort()}`;
      const peerUrl = `http://127.0.0.1:${await freePort()}`;
      const initialCluster = options.cluster.kind === 'new'
        ? `${options.node}=${peerUrl}`
        : await joinedCluster({ node: options.node, peerUrl, memberClientUrls: options.cluster.memberClientUrls, tls });
      const log = createWriteStream(join(dir, 'etcd.log'));
      const child = spawn(options.binary, [
        `--name=${options.node}`, `--data-dir=${join(dir, 'data')}`,
        `--listen-client-urls=${clientUrl}`, `--advertise-client-urls=${clientUrl}`,
        `--listen-peer-urls=${peerUrl}`, `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=${initialCluster}`, `--initial-cluster-state=${options.cluster.kind === 'new' ? 'new' : 'existing'}`,
        `--cert-file=${certificates.serverCert}`, `--key-file=${certificates.serverKey}`,
        `--trusted-ca-file=${certificates.caCert}`, '--client-cert-auth=true',
        '--quota-backend-bytes=134217728', '--snapshot-count=10000',
      ], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout?.pipe(log);
      child.stderr?.pipe(log);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const member = new EtcdMember({ clientUrl, process: child, dir, exited });
      await member.#waitHealthy(tls);
      options.logger.info('etcd member started', { node: options.node, clientUrl, cluster: options.cluster.kind });
      return member;
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  async #waitHealthy(tls: EtcdClientTls): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let exited = false;
    void this.#exited.then(() => { exited = true; });
    for (;;) {
      if (exited) throw new Error(`etcd exited before it was healthy: ${this.#logTail()}`);
      try {
        const health = await etcdCall({ url: this.clientUrl, path: '/health', tls }) as { health?: unknown };
        if (health.health === 'true') return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        await this.stop();
        throw new Error(`etcd not healthy after ${READY_TIMEOUT_MS} ms: ${this.#logTail()}`);
      }
      await sleep(200);
    }
  }

  #logTail(): string {
    try {
      return readFileSync(join(this.#dir, 'etcd.log'), 'utf8').trim().split('\n').slice(-3).join(' | ');
    } catch {
      return '(no log)';
    }
  }

  /** The server's OS is gone: the process stops (a member still listed stays in the cluster, unreachable, as a dead server's would). */
  async stop(): Promise<void> {
    if (this.#process.exitCode === null && this.#process.signalCode === null) {
      this.#process.kill('SIGTERM');
      // Unreferenced: the timer must not keep the process alive once etcd has stopped.
      const stopped = await Promise.race([this.#exited.then(() => true), sleep(STOP_TIMEOUT_MS, undefined, { ref: false }).then(() => false)]);
      if (!stopped) {
        this.#process.kill('SIGKILL');
        await this.#exited;
      }
    }
    await rm(this.#dir, { recursive: true, force: true });
  }
}

/** `--initial-cluster` for a new member: MemberAdd through the first running member that answers, then every member's name and peer URL. */
async function joinedCluster(options: { node: string; peerUrl: string; memberClientUrls: string[]; tls: EtcdClientTls }): Promise<string> {
  const errors: string[] = [];
  for (const url of options.memberClientUrls) {
    try {
      const members = await addMember({ url, peerUrl: options.peerUrl, tls: options.tls });
      return members.flatMap((member) => {
        const peer = member.peerURLs?.[0];
        if (peer === undefined) return [];
        if (peer === options.peerUrl) return [`${options.node}=${peer}`];
        return member.name ? [`${member.name}=${peer}`] : [];
      }).join(',');
    } catch (error) {
      errors.push((error as Error).message);
    }
  }
  throw new Error(`no etcd member could add ${options.node}: ${errors.join('; ') || 'the cluster lists no etcd member'}`);
}
