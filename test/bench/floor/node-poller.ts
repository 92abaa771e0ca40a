// One node list for all nodes every `intervalMs` while anyone waits: the floor's only polling,
// so its request count stays flat in N. A wait only trusts lists started after it began, so a
// list taken before a state change was accepted cannot end it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { IronicHttp } from './ironic-http.ts';

export interface NodeState {
  uuid: string;
  provision_state: string;
  target_provision_state: string | null;
  last_error: string | null;
  power_state: string | null;
}

interface Waiter {
  uuid: string;
  state: string;
  sinceMs: number;
  resolve: (node: NodeState) => void;
  reject: (error: Error) => void;
}

export interface NodePoller {
  /** Resolves once the node rests in `state` (no target); rejects on a failed state. */
  waitFor(uuid: string, state: string): Promise<NodeState>;
  stop(): Promise<void>;
}

const FIELDS = 'uuid,provision_state,target_provision_state,last_error,power_state';

async function listAll(http: IronicHttp): Promise<NodeState[]> {
  const nodes: NodeState[] = [];
  let marker: string | undefined;
  for (;;) {
    const page = await http.request<{ nodes: NodeState[] }>({
      method: 'GET', route: '/v1/nodes', query: `fields=${FIELDS}&limit=1000${marker ? `&marker=${marker}` : ''}`,
    });
    nodes.push(...page.nodes);
    if (page.nodes.length < 1000) return nodes;
    marker = page.nodes.at(-1)?.uuid;
  }
}

/** What a node's state means for a wait: done, failed (with why), or keep waiting. */
export function judge(node: NodeState, state: string): 'done' | 'wait' | Error {
  if (node.provision_state === state && !node.target_provision_state) return 'done';
  if (/failed$/.test(node.provision_state) || (node.provision_state === 'enroll' && node.last_error && !node.target_provision_state)) {
    return new Error(`node ${node.uuid} is ${node.provision_state} waiting for ${state}: ${node.last_error ?? ''}`);
  }
  return 'wait';
}

export function startNodePoller(options: { http: IronicHttp; intervalMs: number }): NodePoller {
  const waiters = new Set<Waiter>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      if (waiters.size === 0) {
        await sleep(50);
        continue;
      }
      const startedMs = Date.now();
      let nodes: NodeState[];
      try {
        nodes = await listAll(options.http);
      } catch (error) {
        for (const waiter of waiters) waiter.reject(error as Error);
        waiters.clear();
        continue;
      }
      const byUuid = new Map(nodes.map((node) => [node.uuid, node]));
      for (const waiter of [...waiters]) {
        if (waiter.sinceMs > startedMs) continue;
        const node = byUuid.get(waiter.uuid);
        const verdict = node ? judge(node, waiter.state) : new Error(`node ${waiter.uuid} is gone waiting for ${waiter.state}`);
        if (verdict === 'wait') continue;
        waiters.delete(waiter);
        if (verdict === 'done') waiter.resolve(node as NodeState);
        else waiter.reject(verdict);
      }
      await sleep(Math.max(0, options.intervalMs - (Date.now() - startedMs)));
    }
  })();
  return {
    waitFor: (uuid, state) =>
      new Promise<NodeState>((resolve, reject) => {
        waiters.add({ uuid, state, sinceMs: Date.now(), resolve, reject });
      }),
    stop: async () => {
      stopped = true;
      await loop;
      for (const waiter of waiters) waiter.reject(new Error('node poller stopped'));
    },
  };
}
