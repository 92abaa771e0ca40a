// Client options, and their compiled form with defaults applied and files read, once.
import { Registry } from 'prom-client';
import { resolveAuth } from './auth.ts';
import type { IronicAuthOptions } from './auth.ts';
import { createAgents } from './tls.ts';
import type { Agents, IronicTlsOptions } from './tls.ts';
import { compileRetryPolicy } from './retry.ts';
import type { RetryOptions, RetryPolicy } from './retry.ts';

export interface IronicClientOptions {
  /** Ironic's URL (IRONIC_ENDPOINT), e.g. https://ironic:6385 or https://ironic:6385/v1/. */
  endpoint: string;
  /** @default { type: 'none' } */
  auth?: IronicAuthOptions;
  tls?: IronicTlsOptions;
  /** Per-request timeout (IRONIC_CLIENT_TIMEOUT). @default 30000 */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Registry for ironic_client_* metrics; the client makes a private one when absent. */
  metricsRegistry?: Registry;
  /** @default 'metal3-ts-ironic-client' */
  userAgent?: string;
  /**
   * Called before every attempt of a request that changes Ironic (any method but GET and HEAD);
   * throwing refuses it unsent. A leader-elected caller passes "do I still hold my Lease?".
   */
  beforeWrite?: (request: { method: string; route: string }) => void;
}

export interface CompiledOptions {
  /** Endpoint without a trailing slash or /v1. */
  baseUrl: string;
  authorization: string | undefined;
  agents: Agents;
  timeoutMs: number;
  retry: RetryPolicy;
  metricsRegistry: Registry;
  userAgent: string;
  beforeWrite: ((request: { method: string; route: string }) => void) | undefined;
}

export function normalizeEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`Ironic endpoint is not a URL: "${endpoint}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`Ironic endpoint must be http or https, got ${url.protocol}`);
  }
  // Credentials in the URL would end up in error messages and logs.
  if (url.username !== '' || url.password !== '') {
    throw new Error('put Ironic credentials in the auth option, not in the endpoint URL');
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${url.origin}${path}`;
}

export async function compileOptions(options: IronicClientOptions): Promise<CompiledOptions> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive, got ${timeoutMs}`);
  const auth = await resolveAuth(options.auth);
  return {
    baseUrl: normalizeEndpoint(options.endpoint),
    authorization: auth.authorization,
    agents: await createAgents(options.tls),
    timeoutMs,
    retry: compileRetryPolicy(options.retry),
    metricsRegistry: options.metricsRegistry ?? new Registry(),
    userAgent: options.userAgent ?? 'metal3-ts-ironic-client',
    beforeWrite: options.beforeWrite,
  };
}
