import type { KubeTransport, QueryValue, WatchEventType } from './kube-client.ts';
import { apiVersionOf, resourcePath } from './kube-object.ts';
import type { KubeList, KubeObject, ObjectName, ResourceType } from './kube-object.ts';

export type PatchType = 'merge' | 'json' | 'apply' | 'strategic';

/** The Content-Type each patch flavour needs; sending the wrong one is the classic 415/422. */
export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
  strategic: 'application/strategic-merge-patch+json',
};

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'test' | 'move' | 'copy';
  path: string;
  value?: unknown;
  from?: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface WriteOptions extends RequestOptions {
  /** Overrides the client's default field manager. */
  fieldManager?: string;
  dryRun?: boolean;
}

export interface PatchOptions extends WriteOptions {
  type: PatchType;
  /** e.g. `'status'` to write only the status subresource. */
  subresource?: string;
  /** Server-side apply only: take ownership of conflicting fields. */
  force?: boolean;
}

export interface ReplaceOptions extends WriteOptions {
  subresource?: string;
}

export interface DeleteOptions extends RequestOptions {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  /** Only delete this exact incarnation / version of the object. */
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
}

export interface ListOptions extends RequestOptions {
  /** Omit to list across all namespaces. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
}

export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  /** Server-side watch duration; the server then ends the watch cleanly. */
  timeoutSeconds?: number;
  signal: AbortSignal;
}

export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: WatchEventType;
  object: T;
}

/** Typed CRUD, patch and watch for one kind; objects stay plain JSON. */
export interface ResourceClient<T extends KubeObject = KubeObject> {
  readonly resource: ResourceType;
  get(name: ObjectName, options?: RequestOptions): Promise<T>;
  list(options?: ListOptions): Promise<KubeList<T>>;
  create(obj: T, options?: WriteOptions): Promise<T>;
  replace(obj: T, options?: ReplaceOptions): Promise<T>;
  patch(name: ObjectName, patch: unknown, options: PatchOptions): Promise<T>;
  delete(name: ObjectName, options?: DeleteOptions): Promise<void>;
  watch(options: WatchOptions, onEvent: (event: WatchEvent<T>) => void): Promise<void>;
}

export interface ResourceClientOptions {
  /** Recorded in managedFields for every write; required for server-side apply. */
  fieldManager?: string;
}

export function createResourceClient<T extends KubeObject = KubeObject>(
  transport: KubeTransport,
  resource: ResourceType,
  options: ResourceClientOptions = {},
): ResourceClient<T> {
  const defaultFieldManager = options.fieldManager;
  const namespaceOf = (name: { namespace?: string }): string | undefined => {
    if (!resource.namespaced) return undefined;
    if (!name.namespace) throw new Error(`${resource.kind} is namespaced: a namespace is required`);
    return name.namespace;
  };
  const writeQuery = (opts: WriteOptions = {}): Record<string, QueryValue> => ({
    fieldManager: opts.fieldManager ?? defaultFieldManager,
    dryRun: opts.dryRun ? 'All' : undefined,
  });

  return {
    resource,
    get: (name, opts = {}) =>
      transport.request<T>({
        method: 'GET',
        path: resourcePath(resource, { namespace: namespaceOf(name), name: name.name }),
        signal: opts.signal,
      }),
    list: (opts = {}) =>
      transport.request<KubeList<T>>({
        method: 'GET',
        path: resourcePath(resource, { namespace: resource.namespaced ? opts.namespace : undefined }),
        query: {
          labelSelector: opts.labelSelector,
          fieldSelector: opts.fieldSelector,
          limit: opts.limit,
          continue: opts.continue,
          resourceVersion: opts.resourceVersion,
        },
        signal: opts.signal,
      }),
    create: (obj, opts = {}) =>
      transport.request<T>({
        method: 'POST',
        path: resourcePath(resource, { namespace: namespaceOf(obj.metadata) }),
        query: writeQuery(opts),
        body: { apiVersion: apiVersionOf(resource), kind: resource.kind, ...obj },
        signal: opts.signal,
      }),
    replace: (obj, opts = {}) =>
      transport.request<T>({
        method: 'PUT',
        path: resourcePath(resource, {
          namespace: namespaceOf(obj.metadata),
          name: requireName(obj),
          subresource: opts.subresource,
        }),
        query: writeQuery(opts),
        body: { apiVersion: apiVersionOf(resource), kind: resource.kind, ...obj },
        signal: opts.signal,
      }),
    patch: (name, patch, opts) =>
      transport.request<T>({
        method: 'PATCH',
        path: resourcePath(resource, { namespace: namespaceOf(name), name: name.name, subresource: opts.subresource }),
        query: { ...writeQuery(opts), force: opts.type === 'apply' && opts.force ? true : undefined },
        body: patch,
        contentType: PATCH_CONTENT_TYPES[opts.type],
        signal: opts.signal,
      }),
    delete: async (name, opts = {}) => {
      await transport.request({
        method: 'DELETE',
        path: resourcePath(resource, { namespace: namespaceOf(name), name: name.name }),
        body: {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          propagationPolicy: opts.propagationPolicy,
          preconditions: opts.preconditions,
          gracePeriodSeconds: opts.gracePeriodSeconds,
        },
        signal: opts.signal,
      });
    },
    watch: (opts, onEvent) =>
      transport.watch(
        {
          path: resourcePath(resource, { namespace: resource.namespaced ? opts.namespace : undefined }),
          query: {
            labelSelector: opts.labelSelector,
            fieldSelector: opts.fieldSelector,
            resourceVersion: opts.resourceVersion,
            allowWatchBookmarks: opts.allowWatchBookmarks,
            timeoutSeconds: opts.timeoutSeconds,
          },
          signal: opts.signal,
        },
        (event) => onEvent({ type: event.type, object: event.object as T }),
      ),
  };
}

function requireName(obj: KubeObject): string {
  if (!obj.metadata.name) throw new Error('object has no metadata.name');
  return obj.metadata.name;
}
