// Client options, and their compiled form with defaults applied and files read, once.
import { Registry } from 'prom-client';
import type { IronicAuthOptions } from './auth.ts';
import { ConnectionMaterial } from './connection-material.ts';
import type { MaterialChange } from './connection-material.ts';
import type { IronicTlsOptions } from './tls.ts';
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
  /**
   * How often the credential and TLS files are read again, so rotated ones are used without a
   * restart (BMO rebuilds its client every IRONIC_CLIENT_CACHE_TTL): 0 before every request;
   * unset, they are read once.
   */
  refreshIntervalMs?: number;
  /** Time source for the refresh; tests pass their own. */
  now?: () => number;
  /** Told which of the credentials, CA and client certificate a refresh found changed (never their contents). */
  onMaterialChange?: (changed: readonly MaterialChange[]) => void;
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
  /** Credentials and TLS agents, from their files, kept current. */
  material: ConnectionMaterial;
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
  const { refreshIntervalMs } = options;
  if (refreshIntervalMs !== undefined && !(refreshIntervalMs >= 0)) throw new RangeError(`refreshIntervalMs must not be negative, got ${refreshIntervalMs}`);
  const baseUrl = normalizeEndpoint(options.endpoint);
  return {
    baseUrl,
    // Replaced agents keep their connections as long as a request may still run on them.
    material: await ConnectionMaterial.load({
      ...(options.auth ? { auth: options.auth } : {}), ...(options.tls ? { tls: options.tls } : {}),
      ...(refreshIntervalMs !== undefined ? { refreshIntervalMs } : {}), retireAfterMs: timeoutMs, ...(options.now ? { now: options.now } : {}),
      ...(options.onMaterialChange ? { onChange: options.onMaterialChange } : {}),
    }),
    timeoutMs,
    retry: compileRetryPolicy(options.retry),
    metricsRegistry: options.metricsRegistry ?? new Registry(),
    userAgent: options.userAgent ?? 'metal3-ts-ironic-client',
    beforeWrite: options.beforeWrite,
  };
}
