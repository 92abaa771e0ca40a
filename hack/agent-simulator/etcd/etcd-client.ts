import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { z } from 'zod';
import type { EtcdCertificateFiles } from './etcd-certificates.ts';

const REQUEST_TIMEOUT_MS = 10_000;

/** TLS material for talking to a member: the cluster's etcd CA and a client certificate it signed. */
export interface EtcdClientTls {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

export function clientTls(files: EtcdCertificateFiles): EtcdClientTls {
  return { ca: readFileSync(files.caCert), cert: readFileSync(files.clientCert), key: readFileSync(files.clientKey) };
}

const memberList = z.object({
  // IDs are uint64s, which the gateway writes as decimal strings.
  members: z.array(z.object({ ID: z.string().optional(), name: z.string().optional(), peerURLs: z.array(z.string()).optional() }).loose()).default([]),
}).loose();

export type EtcdMemberInfo = z.infer<typeof memberList>['members'][number];

/** One call to a member's client URL: etcd's HTTP endpoints and its gRPC gateway (`/v3/...`, JSON). */
export function etcdCall(options: { url: string; path: string; body?: unknown; tls: EtcdClientTls }): Promise<unknown> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const call = request(`${options.url}${options.path}`, {
      method: payload === undefined ? 'GET' : 'POST',
      ca: options.tls.ca, cert: options.tls.cert, key: options.tls.key,
      // One-off calls: no kept-alive socket outlives them.
      agent: false,
      headers: payload === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
      timeout: REQUEST_TIMEOUT_MS,
    }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          reject(new Error(`etcd ${options.path} at ${options.url}: HTTP ${status} ${text.slice(0, 300)}`));
          return;
        }
        try {
          resolve(JSON.parse(text) as unknown);
        } catch {
          reject(new Error(`etcd ${options.path} at ${options.url}: not JSON: ${text.slice(0, 300)}`));
        }
      });
    });
    call.on('timeout', () => call.destroy(new Error(`etcd ${options.path} at ${options.url}: no answer in ${REQUEST_TIMEOUT_MS} ms`)));
    call.on('error', reject);
    call.end(payload);
  });
}

/** etcd's MemberAdd (what `kubeadm join --control-plane` calls before starting the new member): the members afterwards. */
export async function addMember(options: { url: string; peerUrl: string; tls: EtcdClientTls }): Promise<EtcdMemberInfo[]> {
  const answer = await etcdCall({ url: options.url, path: '/v3/cluster/member/add', body: { peerURLs: [options.peerUrl] }, tls: options.tls });
  return memberList.parse(answer).members;
}

/** etcd's MemberList. */
export async function listMembers(options: { url: string; tls: EtcdClientTls }): Promise<EtcdMemberInfo[]> {
  return memberList.parse(await etcdCall({ url: options.url, path: '/v3/cluster/member/list', body: {}, tls: options.tls })).members;
}

const statusAnswer = z.object({ leader: z.string() }).loose();

/** etcd's Status of the member asked: the leader's ID, as that member knows it. */
export async function leaderId(options: { url: string; tls: EtcdClientTls }): Promise<string> {
  return statusAnswer.parse(await etcdCall({ url: options.url, path: '/v3/maintenance/status', body: {}, tls: options.tls })).leader;
}
