import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The few raw Ironic calls the stack's own tests make. Deliberately independent of
 * ironic-client/, so the stack is proven with nothing but Ironic's HTTP API.
 */
export interface RawIronicNode {
  uuid: string;
  name: string | null;
  provision_state: string;
  target_provision_state: string | null;
  power_state: string | null;
  target_power_state?: string | null;
  last_error: string | null;
  maintenance?: boolean;
  maintenance_reason?: string | null;
  fault?: string | null;
  inspection_finished_at?: string | null;
}

const NODE_LOCKED_ATTEMPTS = 30;

export interface RawIronicAccess {
  /** http_basic credentials. */
  auth?: { username: string; password: string };
  /** The CA an https:// Ironic's certificate is checked against. */
  caFile?: string;
}

export class RawIronic {
  readonly #url: string;
  readonly #headers: Record<string, string>;
  readonly #ca: Buffer | undefined;

  constructor(url: string, access: RawIronicAccess = {}) {
    this.#url = url;
    this.#headers = { 'content-type': 'application/json', 'x-openstack-ironic-api-version': '1.95' };
    if (access.auth) {
      this.#headers.authorization = `Basic ${Buffer.from(`${access.auth.username}:${access.auth.password}`).toString('base64')}`;
    }
    this.#ca = access.caFile === undefined ? undefined : readFileSync(access.caFile);
  }

  async #send(method: string, path: string, body: string | undefined): Promise<{ status: number; text: string }> {
    if (this.#ca === undefined) {
      const response = await fetch(`${this.#url}${path}`, { method, headers: this.#headers, ...(body === undefined ? {} : { body }) });
      return { status: response.status, text: await response.text() };
    }
    // fetch cannot be handed a CA; node:https can.
    const ca = this.#ca;
    return new Promise((resolve, reject) => {
      const request = httpsRequest(`${this.#url}${path}`, { method, headers: this.#headers, ca }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    });
  }

  /** Retries while the node is locked by a running task (409 NodeLocked), as Ironic's own clients do. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const { status, text } = await this.#send(method, path, body === undefined ? undefined : JSON.stringify(body));
      if (status === 409 && text.includes('is locked by host') && attempt < NODE_LOCKED_ATTEMPTS) {
        await sleep(1_000);
        continue;
      }
      if (status < 200 || status > 299) throw new Error(`${method} ${path} -> ${status}: ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    }
  }

  node(id: string): Promise<RawIronicNode> {
    return this.request('GET', `/v1/nodes/${id}`);
  }

  async provision(id: string, body: Record<string, unknown>): Promise<void> {
    await this.request('PUT', `/v1/nodes/${id}/states/provision`, body);
  }

  /** Waits until the node is in `state`, whatever its target (e.g. `inspect wait`). */
  async waitForProvisionState(id: string, state: string, timeoutMs = 60_000): Promise<RawIronicNode> {
    const deadline = Date.now() + timeoutMs;
    let node = await this.node(id);
    while (node.provision_state !== state) {
      if (Date.now() > deadline) throw new Error(`node ${id} still ${node.provision_state} after ${timeoutMs} ms, waiting for ${state}`);
      await sleep(250);
      node = await this.node(id);
    }
    return node;
  }

  /** Waits for a stable provision state; fails at once on Ironic's failure states with last_error. */
  async waitForState(id: string, state: string, timeoutMs = 240_000): Promise<RawIronicNode> {
    const deadline = Date.now() + timeoutMs;
    let node = await this.node(id);
    while (Date.now() < deadline) {
      node = await this.node(id);
      if (node.provision_state === state && node.target_provision_state === null) return node;
      if (/failed$/.test(node.provision_state)) {
        throw new Error(`node ${id} went to ${node.provision_state} waiting for ${state}: ${node.last_error}`);
      }
      await sleep(500);
    }
    throw new Error(`node ${id} still ${node.provision_state} -> ${node.target_provision_state} after ${timeoutMs} ms, waiting for ${state}`);
  }
}
