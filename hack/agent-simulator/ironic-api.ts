import type { CachedNode } from './commands/types.ts';

/** IPA speaks 1.68 at most (agent tokens, verify_ca in heartbeats). */
const RAMDISK_API_VERSION = '1.68';
/** continue_inspection with node_uuid and a lookup-style answer needs 1.84. */
const INSPECTION_API_VERSION = '1.84';
const REQUEST_TIMEOUT_MS = 30_000;

export interface LookupConfig {
  heartbeat_timeout?: number;
  agent_token?: string;
  agent_token_required?: boolean;
  agent_md5_checksum_enable?: boolean;
  [field: string]: unknown;
}

export interface LookupAnswer {
  node: CachedNode;
  config: LookupConfig;
}

export interface IronicReply<T = unknown> {
  status: number;
  body: T | undefined;
  /** Ironic's faultstring for error replies. */
  error?: string;
}

/** Ironic wraps errors as {"error_message": "<json with faultstring>"}. */
function faultString(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const message = (body as { error_message?: unknown }).error_message;
  if (typeof message !== 'string') return undefined;
  try {
    const inner = JSON.parse(message) as { faultstring?: unknown };
    return typeof inner.faultstring === 'string' ? inner.faultstring : message;
  } catch {
    return message;
  }
}

/** What a ramdisk needs from Ironic (an interface so tests can stand in for Ironic). */
export type RamdiskIronic = Pick<IronicRamdiskApi, 'lookup' | 'heartbeat' | 'continueInspection' | 'provisionState'>;

/** The Ironic API calls a ramdisk makes (lookup, heartbeat, inspection), plus a node state read. */
export class IronicRamdiskApi {
  readonly #baseUrl: string;
  readonly #authorization: string | undefined;

  constructor(options: { url: string; auth?: { username: string; password: string } | undefined }) {
    this.#baseUrl = options.url.replace(/\/+$/, '');
    this.#authorization =
      options.auth === undefined
        ? undefined
        : `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64')}`;
  }

  async #request<T>(method: string, path: string, version: string, body?: unknown): Promise<IronicReply<T>> {
    const headers: Record<string, string> = { 'X-OpenStack-Ironic-API-Version': version, Accept: 'application/json' };
    if (this.#authorization !== undefined) headers.Authorization = this.#authorization;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.#baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    if (response.ok) return { status: response.status, body: parsed as T };
    return { status: response.status, body: undefined, error: faultString(parsed) ?? (text || response.statusText) };
  }

  lookup(macs: readonly string[]): Promise<IronicReply<LookupAnswer>> {
    const query = new URLSearchParams({ addresses: macs.join(',') });
    return this.#request<LookupAnswer>('GET', `/v1/lookup?${query.toString()}`, RAMDISK_API_VERSION);
  }

  heartbeat(
    nodeUuid: string,
    fields: { callback_url: string; agent_token: string; agent_version: string },
  ): Promise<IronicReply> {
    return this.#request('POST', `/v1/heartbeat/${encodeURIComponent(nodeUuid)}`, RAMDISK_API_VERSION, fields);
  }

  continueInspection(nodeUuid: string, data: Record<string, unknown>): Promise<IronicReply<LookupAnswer>> {
    const query = new URLSearchParams({ node_uuid: nodeUuid });
    return this.#request<LookupAnswer>('POST', `/v1/continue_inspection?${query.toString()}`, INSPECTION_API_VERSION, data);
  }

  /** Not something IPA asks: the simulator has no kernel command line to tell it that it boots for inspection. */
  async provisionState(nodeUuid: string): Promise<string | undefined> {
    const reply = await this.#request<{ provision_state?: string }>(
      'GET',
      `/v1/nodes/${encodeURIComponent(nodeUuid)}?fields=provision_state`,
      INSPECTION_API_VERSION,
    );
    if (reply.status !== 200) throw new Error(`HTTP ${reply.status} ${reply.error ?? ''}`.trim());
    return reply.body?.provision_state;
  }
}
