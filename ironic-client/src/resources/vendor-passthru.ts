// Vendor passthru: <METHOD> /v1/nodes/{node}/vendor_passthru?method=<name>, plus the Redfish
// event subscription methods BMO's BMCEventSubscription uses.
import { z } from 'zod';
import { checkContract } from '../contract.ts';
import type { VendorPassthruMethods } from '../types.ts';
import type { ResourceContext } from './context.ts';

export type VendorHttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface VendorPassthruCall {
  /** Vendor method name, e.g. create_subscription. */
  method: string;
  /** HTTP method the vendor method accepts (see listVendorPassthruMethods). @default 'POST' */
  httpMethod?: VendorHttpMethod;
  /** Arguments of the method; not allowed with GET. */
  body?: Record<string, unknown>;
}

export interface VendorPassthruResult {
  /** 200 for synchronous methods, 202 when Ironic runs the method in the background. */
  status: number;
  data: unknown;
}

export interface EventSubscriptionOptions {
  /** Where the BMC posts events (the BMCEventSubscription destination). */
  destination: string;
  context?: string;
  protocol?: string;
  eventTypes?: string[];
  /** Extra headers the BMC sends with each event, e.g. credentials of the receiver. */
  httpHeaders?: Record<string, string>[];
}

/** The Redfish subscription as Ironic returns it (Id, Context, Destination, EventTypes, Protocol). */
export interface EventSubscription {
  Id: string;
  Context?: string;
  Destination?: string;
  EventTypes?: string[];
  Protocol?: string;
  [key: string]: unknown;
}

const eventSubscriptionContract = z.looseObject({ Id: z.string() });

export interface VendorPassthruOperations {
  callVendorPassthru(nodeIdent: string, call: VendorPassthruCall): Promise<VendorPassthruResult>;
  listVendorPassthruMethods(nodeIdent: string): Promise<VendorPassthruMethods>;
  createEventSubscription(nodeIdent: string, options: EventSubscriptionOptions): Promise<EventSubscription>;
  deleteEventSubscription(nodeIdent: string, subscriptionId: string): Promise<void>;
}

export function vendorPassthruOperations({ transport }: ResourceContext): VendorPassthruOperations {
  async function callVendorPassthru(nodeIdent: string, call: VendorPassthruCall): Promise<VendorPassthruResult> {
    const path = { node_ident: nodeIdent };
    const query = { method: call.method };
    const body = call.body;
    const route = '/v1/nodes/{node_ident}/vendor_passthru';
    let result;
    switch (call.httpMethod ?? 'POST') {
      case 'GET':
        if (body !== undefined) throw new TypeError('vendor passthru: a GET call takes no body');
        result = await transport.call('get', route, { path, query });
        break;
      case 'POST':
        result = await transport.call('post', route, { path, query, body });
        break;
      case 'PUT':
        result = await transport.call('put', route, { path, query, body });
        break;
      case 'PATCH':
        result = await transport.call('patch', route, { path, query, body });
        break;
      case 'DELETE':
        result = await transport.call('delete', route, { path, query, body });
        break;
    }
    return { status: result.status, data: result.data };
  }

  return {
    callVendorPassthru,
    async listVendorPassthruMethods(nodeIdent) {
      const result = await transport.call('get', '/v1/nodes/{node_ident}/vendor_passthru/methods', { path: { node_ident: nodeIdent } });
      return result.data;
    },
    async createEventSubscription(nodeIdent, options) {
      const body: Record<string, unknown> = { Destination: options.destination };
      if (options.context !== undefined) body.Context = options.context;
      if (options.protocol !== undefined) body.Protocol = options.protocol;
      if (options.eventTypes !== undefined) body.EventTypes = options.eventTypes;
      if (options.httpHeaders !== undefined) body.HttpHeaders = options.httpHeaders;
      const route = '/v1/nodes/{node_ident}/vendor_passthru';
      const result = await transport.call('post', route, {
        path: { node_ident: nodeIdent },
        query: { method: 'create_subscription' },
        body,
      });
      return checkContract<EventSubscription>(eventSubscriptionContract, result.data, result.request);
    },
    async deleteEventSubscription(nodeIdent, subscriptionId) {
      await callVendorPassthru(nodeIdent, { method: 'delete_subscription', httpMethod: 'DELETE', body: { id: subscriptionId } });
    },
  };
}
