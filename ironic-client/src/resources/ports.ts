// Ports: list by MAC address or by node, create, delete.
import { checkContract, DEFAULT_PORT_LIST_FIELDS, portCollectionContract, portContract } from '../contract.ts';
import { markerFromNextLink } from '../request-url.ts';
import type { Page, Port, PortCreate, PortField } from '../types.ts';
import { collectAllPages } from './pagination.ts';
import type { ResourceContext } from './context.ts';

export interface PortListFilters {
  /** MAC address; BMO finds a host's node by its boot MAC this way. */
  address?: string;
  /** Node UUID or name. */
  node?: string;
  nodeUuid?: string;
  limit?: number;
  marker?: string;
  sortKey?: string;
  sortDir?: 'asc' | 'desc';
}

export type PortSubset<F extends PortField> = Pick<Port, F | 'links'>;
export type DefaultPortListField = (typeof DEFAULT_PORT_LIST_FIELDS)[number];

export interface PortOperations {
  list<F extends PortField>(query: PortListFilters & { fields: readonly F[] }): Promise<Page<PortSubset<F>>>;
  list(query: PortListFilters & { detail: true }): Promise<Page<Port>>;
  /** Default fields: uuid and address. */
  list(query?: PortListFilters): Promise<Page<PortSubset<DefaultPortListField>>>;
  listAll<F extends PortField>(query: PortListFilters & { fields: readonly F[] }): Promise<PortSubset<F>[]>;
  listAll(query: PortListFilters & { detail: true }): Promise<Port[]>;
  listAll(query?: PortListFilters): Promise<PortSubset<DefaultPortListField>[]>;
  /** The ports of one node, through /v1/nodes/{node}/ports. */
  listByNode<F extends PortField>(nodeIdent: string, options: { fields: readonly F[] }): Promise<PortSubset<F>[]>;
  listByNode(nodeIdent: string, options: { detail: true }): Promise<Port[]>;
  listByNode(nodeIdent: string): Promise<PortSubset<DefaultPortListField>[]>;
  /** 409 (MACAlreadyExists) when another port has the address. */
  create(port: PortCreate): Promise<Port>;
  /** Takes the port UUID; Ironic does not accept names here. */
  delete(portUuid: string): Promise<void>;
}

interface ListQuery extends PortListFilters {
  fields?: readonly PortField[];
  detail?: boolean;
}

function expectedFields(query: { fields?: readonly PortField[]; detail?: boolean }): readonly string[] | undefined {
  if (query.fields !== undefined && query.detail) throw new TypeError('ports: fields and detail cannot be combined');
  return query.detail ? undefined : (query.fields ?? DEFAULT_PORT_LIST_FIELDS);
}

export function portOperations({ transport }: ResourceContext): PortOperations {
  async function list(query: ListQuery = {}): Promise<Page<Partial<Port>>> {
    const expected = expectedFields(query);
    const result = await transport.call('get', '/v1/ports', {
      query: {
        address: query.address,
        node: query.node,
        node_uuid: query.nodeUuid,
        fields: query.fields ? [...query.fields] : undefined,
        detail: query.detail || undefined,
        limit: query.limit,
        marker: query.marker,
        sort_key: query.sortKey,
        sort_dir: query.sortDir,
      },
    });
    const body = checkContract<typeof result.data>(portCollectionContract(expected), result.data, result.request);
    return { items: body.ports, nextMarker: markerFromNextLink(body.next) };
  }

  const operations = {
    list,
    listAll(query: ListQuery = {}) {
      return collectAllPages((marker) => list({ ...query, marker: marker ?? query.marker }));
    },
    listByNode(nodeIdent: string, options: { fields?: readonly PortField[]; detail?: boolean } = {}) {
      const expected = expectedFields(options);
      return collectAllPages(async (marker) => {
        const result = await transport.call('get', '/v1/nodes/{node_ident}/ports', {
          path: { node_ident: nodeIdent },
          query: { fields: options.fields ? [...options.fields] : undefined, detail: options.detail || undefined, marker },
        });
        const body = checkContract<typeof result.data>(portCollectionContract(expected), result.data, result.request);
        return { items: body.ports, nextMarker: markerFromNextLink(body.next) };
      });
    },
    async create(port: PortCreate): Promise<Port> {
      const result = await transport.call('post', '/v1/ports', { body: port });
      return checkContract<Port>(portContract(), result.data, result.request);
    },
    async delete(portUuid: string): Promise<void> {
      await transport.call('delete', '/v1/ports/{port_id}', { path: { port_id: portUuid } });
    },
  };
  // The implementations are general; the interface's overloads narrow results by the fields asked for.
  return operations as unknown as PortOperations;
}
