// Node history: GET /v1/nodes/{node}/history (empty where [conductor] node_history = False).
import { checkContract, historyCollectionContract } from '../contract.ts';
import { markerFromNextLink } from '../request-url.ts';
import type { NodeHistoryEvent, Page } from '../types.ts';
import type { ResourceContext } from './context.ts';

export interface NodeHistoryOptions {
  /** Adds event_type, conductor and user to each event. */
  detail?: boolean;
  limit?: number;
  marker?: string;
  sortDir?: 'asc' | 'desc';
}

export interface HistoryOperations {
  listHistory(nodeIdent: string, options?: NodeHistoryOptions): Promise<Page<NodeHistoryEvent>>;
}

export function historyOperations({ transport }: ResourceContext): HistoryOperations {
  return {
    async listHistory(nodeIdent, options = {}) {
      const result = await transport.call('get', '/v1/nodes/{node_ident}/history', {
        path: { node_ident: nodeIdent },
        query: { detail: options.detail || undefined, limit: options.limit, marker: options.marker, sort_dir: options.sortDir },
      });
      const body = checkContract<{ history: NodeHistoryEvent[]; next?: string }>(historyCollectionContract, result.data, result.request);
      return { items: body.history, nextMarker: markerFromNextLink(body.next) };
    },
  };
}
