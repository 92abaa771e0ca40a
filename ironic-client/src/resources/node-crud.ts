// Nodes: list (with fields, filters, detail), get, create, JSON-patch, delete, states, validate.
import {
  checkContract,
  DEFAULT_NODE_LIST_FIELDS,
  nodeCollectionContract,
  nodeContract,
  nodeStatesContract,
  nodeValidationContract,
} from '../contract.ts';
import { markerFromNextLink } from '../request-url.ts';
import type { JsonPatch, Node, NodeCreate, NodeField, NodeStates, NodeValidation, Page } from '../types.ts';
import { collectAllPages } from './pagination.ts';
import { requireFeature } from './context.ts';
import type { ResourceContext } from './context.ts';

export interface NodeListFilters {
  provisionState?: string;
  driver?: string;
  maintenance?: boolean;
  /** Whether the node has an instance_uuid. */
  associated?: boolean;
  instanceUuid?: string;
  resourceClass?: string;
  conductorGroup?: string;
  fault?: string;
  owner?: string;
  shard?: readonly string[];
  /** Page size; Ironic caps it at [api] max_limit (1000). */
  limit?: number;
  marker?: string;
  sortKey?: string;
  sortDir?: 'asc' | 'desc';
}

/** A node holding only some fields, as list and get with `fields` return it. */
export type NodeSubset<F extends NodeField> = Pick<Node, F | 'links'>;
export type DefaultNodeListField = (typeof DEFAULT_NODE_LIST_FIELDS)[number];

export interface NodeCrudOperations {
  /** One page with only the given fields (plus links). */
  list<F extends NodeField>(query: NodeListFilters & { fields: readonly F[] }): Promise<Page<NodeSubset<F>>>;
  /** One page of full nodes. */
  list(query: NodeListFilters & { detail: true }): Promise<Page<Node>>;
  /** One page with Ironic's default fields: uuid, name, instance_uuid, power_state, provision_state, maintenance. */
  list(query?: NodeListFilters): Promise<Page<NodeSubset<DefaultNodeListField>>>;
  /** Every page, following markers. */
  listAll<F extends NodeField>(query: NodeListFilters & { fields: readonly F[] }): Promise<NodeSubset<F>[]>;
  listAll(query: NodeListFilters & { detail: true }): Promise<Node[]>;
  listAll(query?: NodeListFilters): Promise<NodeSubset<DefaultNodeListField>[]>;
  get<F extends NodeField>(nodeIdent: string, options: { fields: readonly F[] }): Promise<NodeSubset<F>>;
  get(nodeIdent: string): Promise<Node>;
  /** Enrolls a node; it starts in `enroll`. */
  create(node: NodeCreate): Promise<Node>;
  update(nodeIdent: string, patch: JsonPatch, options?: { resetInterfaces?: boolean }): Promise<Node>;
  delete(nodeIdent: string): Promise<void>;
  /** Cheap poll of the state fields. */
  getStates(nodeIdent: string): Promise<NodeStates>;
  /** Validates every driver interface; `result: null` means unsupported. */
  validate(nodeIdent: string): Promise<NodeValidation>;
}

interface ListQuery extends NodeListFilters {
  fields?: readonly NodeField[];
  detail?: boolean;
}

function filtersToQuery(filters: NodeListFilters) {
  return {
    provision_state: filters.provisionState,
    driver: filters.driver,
    maintenance: filters.maintenance,
    associated: filters.associated,
    instance_uuid: filters.instanceUuid,
    resource_class: filters.resourceClass,
    conductor_group: filters.conductorGroup,
    fault: filters.fault,
    owner: filters.owner,
    shard: filters.shard ? [...filters.shard] : undefined,
    limit: filters.limit,
    marker: filters.marker,
    sort_key: filters.sortKey,
    sort_dir: filters.sortDir,
  };
}

function mentionsDisablePowerOff(value: NodeCreate | JsonPatch): boolean {
  if (Array.isArray(value)) return value.some((op) => op.path === '/disable_power_off' && op.op !== 'remove');
  return (value as NodeCreate).disable_power_off != null;
}

export function nodeCrudOperations(context: ResourceContext): NodeCrudOperations {
  const { transport } = context;

  async function list(query: ListQuery = {}): Promise<Page<Partial<Node>>> {
    const { fields, detail, ...filters } = query;
    if (fields !== undefined && detail) throw new TypeError('nodes.list: fields and detail cannot be combined');
    const result = await transport.call('get', '/v1/nodes', {
      query: { ...filtersToQuery(filters), fields: fields ? [...fields] : undefined, detail: detail || undefined },
    });
    const expected = detail ? undefined : (fields ?? DEFAULT_NODE_LIST_FIELDS);
    const body = checkContract<typeof result.data>(nodeCollectionContract(expected), result.data, result.request);
    return { items: body.nodes, nextMarker: markerFromNextLink(body.next) };
  }

  function listAll(query: ListQuery = {}): Promise<Partial<Node>[]> {
    return collectAllPages((marker) => list({ ...query, marker: marker ?? query.marker }));
  }

  async function get(nodeIdent: string, options: { fields?: readonly NodeField[] } = {}): Promise<Partial<Node>> {
    const fields = options.fields ? [...options.fields] : undefined;
    const result = await transport.call('get', '/v1/nodes/{node_ident}', { path: { node_ident: nodeIdent }, query: { fields } });
    return checkContract<Node>(nodeContract(fields), result.data, result.request);
  }

  function guardDisablePowerOff(value: NodeCreate | JsonPatch): void {
    if (mentionsDisablePowerOff(value)) requireFeature(context, 'disablePowerOff', 'disable_power_off');
  }

  const operations = {
    list,
    listAll,
    get,
    async create(node: NodeCreate): Promise<Node> {
      guardDisablePowerOff(node);
      const result = await transport.call('post', '/v1/nodes', { body: node });
      return checkContract<Node>(nodeContract(), result.data, result.request);
    },
    async update(nodeIdent: string, patch: JsonPatch, options: { resetInterfaces?: boolean } = {}): Promise<Node> {
      guardDisablePowerOff(patch);
      const result = await transport.call('patch', '/v1/nodes/{node_ident}', {
        path: { node_ident: nodeIdent },
        query: { reset_interfaces: options.resetInterfaces },
        body: patch,
      });
      return checkContract<Node>(nodeContract(), result.data, result.request);
    },
    async delete(nodeIdent: string): Promise<void> {
      await transport.call('delete', '/v1/nodes/{node_ident}', { path: { node_ident: nodeIdent } });
    },
    async getStates(nodeIdent: string): Promise<NodeStates> {
      const result = await transport.call('get', '/v1/nodes/{node_ident}/states', { path: { node_ident: nodeIdent } });
      return checkContract<NodeStates>(nodeStatesContract, result.data, result.request);
    },
    async validate(nodeIdent: string): Promise<NodeValidation> {
      const result = await transport.call('get', '/v1/nodes/{node_ident}/validate', { path: { node_ident: nodeIdent } });
      return checkContract<NodeValidation>(nodeValidationContract, result.data, result.request);
    },
  };
  // The implementations are general; the interface's overloads narrow results by the fields asked for.
  return operations as unknown as NodeCrudOperations;
}
