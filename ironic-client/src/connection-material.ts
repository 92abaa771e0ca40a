// The credentials and TLS material a request goes out with, read again from their files now and
// then (BMO rebuilds its client every IRONIC_CLIENT_CACHE_TTL), so a rotated password Secret or a
// renewed client certificate is used without a restart.
import { resolveAuth } from './auth.ts';
import type { IronicAuthOptions } from './auth.ts';
import { agentsFrom, readTlsPems } from './tls.ts';
import type { Agents, IronicTlsOptions, TlsPems } from './tls.ts';

export interface Material {
  authorization: string | undefined;
  agents: Agents;
}

/** What a re-read found changed; never the contents. */
export type MaterialChange = 'credentials' | 'CA' | 'client certificate';

export interface MaterialOptions {
  auth?: IronicAuthOptions;
  tls?: IronicTlsOptions;
  /** How often the files are read again: 0 before every request, unset never (read once). */
  refreshIntervalMs?: number;
  /** How long replaced agents keep their connections, for requests still running on them. */
  retireAfterMs: number;
  now?: () => number;
  /** Told after a re-read replaced what requests use, so the change can be logged. */
  onChange?: (changed: readonly MaterialChange[]) => void;
}

interface Read {
  authorization: string | undefined;
  pems: TlsPems;
}

function changesBetween(a: Read, b: Read): MaterialChange[] {
  const changes: MaterialChange[] = [];
  if (a.authorization !== b.authorization) changes.push('credentials');
  if (a.pems.ca !== b.pems.ca) changes.push('CA');
  if (a.pems.cert !== b.pems.cert || a.pems.key !== b.pems.key) changes.push('client certificate');
  return changes;
}

async function readFiles(options: MaterialOptions): Promise<Read> {
  const [auth, pems] = await Promise.all([resolveAuth(options.auth), readTlsPems(options.tls)]);
  return { authorization: auth.authorization, pems };
}

export class ConnectionMaterial {
  readonly #options: MaterialOptions;
  readonly #now: () => number;
  #read: Read;
  #material: Material;
  #readAtMs: number;
  #reading: Promise<void> | undefined;

  private constructor(options: MaterialOptions, read: Read) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#read = read;
    this.#material = { authorization: read.authorization, agents: agentsFrom(options.tls ?? {}, read.pems) };
    this.#readAtMs = this.#now();
  }

  /** Reads the files once; their errors (missing, unreadable, empty) are the caller's. */
  static async load(options: MaterialOptions): Promise<ConnectionMaterial> {
    return new ConnectionMaterial(options, await readFiles(options));
  }

  /** What the next request uses: the files as last read, read again once the interval has passed. */
  async current(): Promise<Material> {
    const interval = this.#options.refreshIntervalMs;
    if (interval !== undefined && this.#now() - this.#readAtMs >= interval) {
      this.#reading ??= this.#readAgain().finally(() => {
        this.#reading = undefined;
      });
      await this.#reading;
    }
    return this.#material;
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.#material.agents.httpAgent.destroy();
    this.#material.agents.httpsAgent.destroy();
  }

  async #readAgain(): Promise<void> {
    this.#readAtMs = this.#now();
    let read: Read;
    try {
      read = await readFiles(this.#options);
    } catch {
      // A mounted Secret is swapped by symlink: a file can be briefly missing. Keep what works.
      return;
    }
    const changes = changesBetween(this.#read, read);
    if (changes.length === 0) return;
    const retired = this.#material.agents;
    this.#read = read;
    this.#material = { authorization: read.authorization, agents: agentsFrom(this.#options.tls ?? {}, read.pems) };
    setTimeout(() => {
      retired.httpAgent.destroy();
      retired.httpsAgent.destroy();
    }, this.#options.retireAfterMs).unref();
    this.#options.onChange?.(changes);
  }
}
