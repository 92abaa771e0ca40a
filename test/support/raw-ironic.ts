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
  last_error: string | null;
}

const NODE_LOCKED_ATTEMPTS = 30;

export class RawIronic {
  readonly #url: string;

  constructor(url: string) {
    this.#url = url;
  }

  /** Retries while the node is locked by a running task (409 NodeLocked), as Ironic's own clients do. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${this.#url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-openstack-ironic-api-version': '1.95' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (response.status === 409 && text.includes('is locked by host') && attempt < NODE_LOCKED_ATTEMPTS) {
        await sleep(1_000);
        continue;
      }
      if (!response.ok) throw new Error(`${method} ${path} -> ${response.status}: ${text}`);
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
