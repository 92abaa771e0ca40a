// HTTPS agent from BMO-style TLS settings: a CA bundle (trust the CA, not the leaf, since
// cert-manager rotates leaves), insecure mode, and an optional client certificate for mTLS.
import { readFile } from 'node:fs/promises';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AgentOptions } from 'node:https';

export interface IronicTlsOptions {
  /** PEM file with the CA(s) that signed Ironic's certificate (IRONIC_CACERT_FILE). */
  caFile?: string;
  /** Skip certificate verification entirely (IRONIC_INSECURE). */
  insecure?: boolean;
  /** Verify the chain but not the host name (IRONIC_SKIP_CLIENT_SAN_VERIFY). */
  skipHostnameVerification?: boolean;
  /** PEM client certificate for mTLS (IRONIC_CLIENT_CERT_FILE); needs keyFile. */
  certFile?: string;
  /** PEM private key for mTLS (IRONIC_CLIENT_PRIVATE_KEY_FILE); needs certFile. */
  keyFile?: string;
}

export interface Agents {
  httpAgent: HttpAgent;
  httpsAgent: HttpsAgent;
}

async function readPem(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new Error(`cannot read Ironic ${what} ${path}: ${code}`, { cause: error });
  }
}

/** The PEM texts the TLS options name, read now. */
export interface TlsPems {
  ca?: string;
  cert?: string;
  key?: string;
}

export async function readTlsPems(tls: IronicTlsOptions = {}): Promise<TlsPems> {
  if ((tls.certFile === undefined) !== (tls.keyFile === undefined)) {
    throw new Error('TLS client authentication needs both certFile and keyFile');
  }
  const pems: TlsPems = {};
  if (tls.caFile !== undefined) pems.ca = await readPem(tls.caFile, 'CA file');
  if (tls.certFile !== undefined && tls.keyFile !== undefined) {
    pems.cert = await readPem(tls.certFile, 'client certificate');
    pems.key = await readPem(tls.keyFile, 'client key');
  }
  return pems;
}

export function agentsFrom(tls: IronicTlsOptions, pems: TlsPems): Agents {
  // Keep-alive: an operator polls the same Ironic many times a second.
  const options: AgentOptions = { keepAlive: true, rejectUnauthorized: tls.insecure !== true, ...pems };
  if (tls.skipHostnameVerification === true) options.checkServerIdentity = () => undefined;
  return { httpAgent: new HttpAgent({ keepAlive: true }), httpsAgent: new HttpsAgent(options) };
}

export async function createAgents(tls: IronicTlsOptions = {}): Promise<Agents> {
  return agentsFrom(tls, await readTlsPems(tls));
}
