import { ApiException } from '@kubernetes/client-node';
import { randomUUID } from 'node:crypto';
import { deepEqual } from '../deep-equal.ts';
import { KubeStatusError } from '../kube-errors.ts';
import type { KubeRequest, KubeTransport, RawWatchEvent, WatchEventType, WatchRequest } from '../kube-client.ts';
import type { KubeObject } from '../kube-object.ts';
import type { JsonPatchOperation } from '../resource-client.ts';
import { JsonPatchError, applyJsonPatch, applyMergePatch } from './patches.ts';

interface ParsedPath {
  group: string;
  version: string;
  namespace?: string;
  plural: string;
  name?: string;
  subresource?: string;
}

interface Watcher {
  collection: string;
  namespace?: string;
  onEvent: (event: RawWatchEvent) => void;
  end: (error?: unknown) => void;
}

interface HistoryEntry {
  rv: number;
  collection: string;
  namespace?: string;
  event: RawWatchEvent;
}

function statusError(code: number, reason: string, message: string): ApiException<string> {
  const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });
  return new ApiException(code, message, body, {});
}

function parsePath(path: string): ParsedPath {
  const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (segments[0] === 'api') {
    group = '';
    version = segments[1] ?? '';
    rest = segments.slice(2);
  } else if (segments[0] === 'apis') {
    group = segments[1] ?? '';
    version = segments[2] ?? '';
    rest = segments.slice(3);
  } else {
    throw statusError(404, 'NotFound', `unknown path ${path}`);
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, subresource] = rest;
  if (!plural) throw statusError(404, 'NotFound', `unknown path ${path}`);
  return { group, version, namespace, plural, name, subresource };
}

function matchesLabels(obj: KubeObject, selector: string | undefined): boolean {
  if (!selector) return true;
  const labels = obj.metadata.labels ?? {};
  return selector.split(',').every((term) => {
    const [key, value] = term.split('=');
    return key !== undefined && labels[key] === value;
  });
}

function stripMetaAndStatus(obj: KubeObject): unknown {
  const { metadata: _metadata, status: _status, ...rest } = obj;
  return rest;
}

/**
 * An in-memory API server behind the {@link KubeTransport} port: CRUD, merge and JSON
 * patches, the status subresource, resourceVersion conflicts, finalizer-aware deletion,
 * generation bumps and watches that replay from a resourceVersion. Failures can be
 * injected with {@link FakeApiServer.intercept}, watches broken with
 * {@link FakeApiServer.breakWatches}, and history compacted to force 410 relists.
 */
export class FakeApiServer implements KubeTransport {
  readonly requests: KubeRequest[] = [];
  /** Called before each request; throw from it to inject a failure. */
  intercept: ((request: KubeRequest) => void) | undefined;
  #objects = new Map<string, KubeObject>();
  #history: HistoryEntry[] = [];
  #watchers = new Set<Watcher>();
  #rv = 1;
  #compactedRv = 0;
  #now: () => Date;

  constructor(options: { now?: () => Date } = {}) {
    this.#now = options.now ?? (() => new Date());
  }

  get resourceVersion(): string {
    return String(this.#rv);
  }

  get openWatches(): number {
    return this.#watchers.size;
  }

  /** Every stored object of a plural (e.g. `'leases'`), for assertions. */
  objects(plural: string): KubeObject[] {
    return [...this.#objects.entries()]
      .filter(([key]) => key.split('|')[1] === plural)
      .map(([, obj]) => structuredClone(obj));
  }

  /** Ends every open watch, cleanly or with `error`, as an API server restart would. */
  breakWatches(error?: unknown): void {
    for (const watcher of [...this.#watchers]) watcher.end(error);
  }

  /** Forgets history so watches from older resourceVersions fail with 410 Expired. */
  compact(): void {
    this.#compactedRv = this.#rv;
    this.#history = [];
    for (const watcher of [...this.#watchers]) {
      watcher.end(new KubeStatusError({ code: 410, reason: 'Expired', message: 'too old resource version' }));
    }
  }

  async request<T = unknown>(request: KubeRequest): Promise<T> {
    this.requests.push(request);
    await Promise.resolve();
    this.intercept?.(request);
    const path = parsePath(request.path);
    const collection = `${path.group}|${path.plural}`;
    switch (request.method) {
      case 'GET':
        return (path.name === undefined ? this.#list(collection, path, request) : this.#get(collection, path)) as T;
      case 'POST':
        return this.#create(collection, path, request.body as KubeObject) as T;
      case 'PUT':
        return this.#replace(collection, path, request.body as KubeObject) as T;
      case 'PATCH':
        return this.#patch(collection, path, request) as T;
      case 'DELETE':
        return this.#delete(collection, path, request.body as { preconditions?: { uid?: string; resourceVersion?: string } }) as T;
    }
  }

  watch(request: WatchRequest, onEvent: (event: RawWatchEvent) => void): Promise<void> {
    this.requests.push({ method: 'GET', path: request.path, query: { ...request.query, watch: true } });
    return new Promise<void>((resolve, reject) => {
      try {
        this.intercept?.({ method: 'GET', path: request.path, query: { ...request.query, watch: true } });
      } catch (error) {
        reject(error);
        return;
      }
      const path = parsePath(request.path);
      const collection = `${path.group}|${path.plural}`;
      const fromRv = Number(request.query?.resourceVersion ?? this.#rv);
      if (fromRv < this.#compactedRv) {
        reject(new KubeStatusError({ code: 410, reason: 'Expired', message: 'too old resource version' }));
        return;
      }
      const watcher: Watcher = {
        collection,
        namespace: path.namespace,
        onEvent,
        end: (error) => {
          this.#watchers.delete(watcher);
          request.signal.removeEventListener('abort', onAbort);
          if (error) reject(error);
          else resolve();
        },
      };
      const onAbort = (): void => watcher.end();
      if (request.signal.aborted) {
        resolve();
        return;
      }
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.#watchers.add(watcher);
      for (const entry of this.#history) {
        if (entry.rv > fromRv && this.#watcherWants(watcher, entry.collection, entry.namespace)) {
          onEvent(structuredClone(entry.event));
        }
      }
    });
  }

  #watcherWants(watcher: Watcher, collection: string, namespace: string | undefined): boolean {
    return watcher.collection === collection && (!watcher.namespace || watcher.namespace === namespace);
  }

  #key(collection: string, namespace: string | undefined, name: string): string {
    return `${collection}|${namespace ?? ''}|${name}`;
  }

  #emit(collection: string, type: WatchEventType, obj: KubeObject): void {
    const event: RawWatchEvent = { type, object: structuredClone(obj) };
    const entry = { rv: this.#rv, collection, namespace: obj.metadata.namespace, event };
    this.#history.push(entry);
    for (const watcher of [...this.#watchers]) {
      if (this.#watcherWants(watcher, collection, entry.namespace)) watcher.onEvent(structuredClone(event));
    }
  }

  #store(collection: string, obj: KubeObject, type: WatchEventType): KubeObject {
    this.#rv++;
    obj.metadata.resourceVersion = String(this.#rv);
    this.#objects.set(this.#key(collection, obj.metadata.namespace, obj.metadata.name ?? ''), obj);
    this.#emit(collection, type, obj);
    return structuredClone(obj);
  }

  #existing(collection: string, path: ParsedPath): KubeObject {
    const found = this.#objects.get(this.#key(collection, path.namespace, path.name ?? ''));
    if (!found) throw statusError(404, 'NotFound', `${path.plural} "${path.name}" not found`);
    return found;
  }

  #get(collection: string, path: ParsedPath): KubeObject {
    return structuredClone(this.#existing(collection, path));
  }

  #list(collection: string, path: ParsedPath, request: KubeRequest): unknown {
    const labelSelector = request.query?.labelSelector as string | undefined;
    const items = [...this.#objects.entries()]
      .filter(([key]) => key.startsWith(`${collection}|`))
      .map(([, obj]) => obj)
      .filter((obj) => !path.namespace || obj.metadata.namespace === path.namespace)
      .filter((obj) => matchesLabels(obj, labelSelector))
      .map((obj) => structuredClone(obj));
    return { kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: String(this.#rv) }, items };
  }

  #create(collection: string, path: ParsedPath, body: KubeObject): KubeObject {
    const obj = structuredClone(body);
    obj.metadata = { ...obj.metadata };
    if (!obj.metadata.name && obj.metadata.generateName) {
      obj.metadata.name = obj.metadata.generateName + randomUUID().slice(0, 5);
    }
    if (!obj.metadata.name) throw statusError(422, 'Invalid', 'metadata.name: Required value');
    if (path.namespace) obj.metadata.namespace = path.namespace;
    if (this.#objects.has(this.#key(collection, path.namespace, obj.metadata.name))) {
      throw statusError(409, 'AlreadyExists', `${path.plural} "${obj.metadata.name}" already exists`);
    }
    obj.metadata.uid = randomUUID();
    obj.metadata.generation = 1;
    obj.metadata.creationTimestamp = this.#now().toISOString().replace(/\.\d+Z$/, 'Z');
    return this.#store(collection, obj, 'ADDED');
  }

  #replace(collection: string, path: ParsedPath, body: KubeObject): KubeObject {
    const current = this.#existing(collection, path);
    const sent = body.metadata?.resourceVersion;
    if (sent && sent !== current.metadata.resourceVersion) {
      throw statusError(409, 'Conflict', `Operation cannot be fulfilled on ${path.plural} "${path.name}": the object has been modified; please apply your changes to the latest version and try again`);
    }
    return this.#commit(collection, path, current, structuredClone(body));
  }

  #patch(collection: string, path: ParsedPath, request: KubeRequest): KubeObject {
    const current = this.#existing(collection, path);
    let patched: KubeObject;
    try {
      if (request.contentType === 'application/merge-patch+json') {
        patched = applyMergePatch(current, request.body) as KubeObject;
      } else if (request.contentType === 'application/json-patch+json') {
        patched = applyJsonPatch(current, request.body as JsonPatchOperation[]) as KubeObject;
      } else {
        throw statusError(415, 'UnsupportedMediaType', `the fake does not support ${request.contentType}`);
      }
    } catch (error) {
      if (error instanceof JsonPatchError) throw statusError(422, 'Invalid', error.message);
      throw error;
    }
    const sent = patched.metadata?.resourceVersion;
    if (sent !== current.metadata.resourceVersion) {
      throw statusError(409, 'Conflict', `Operation cannot be fulfilled on ${path.plural} "${path.name}": the object has been modified; please apply your changes to the latest version and try again`);
    }
    return this.#commit(collection, path, current, patched);
  }

  /** Applies status-subresource rules, generation bumps and finalizer-driven removal. */
  #commit(collection: string, path: ParsedPath, current: KubeObject, desired: KubeObject): KubeObject {
    let next: KubeObject;
    if (path.subresource === 'status') {
      next = { ...structuredClone(current), status: desired.status };
    } else {
      next = {
        ...structuredClone(desired),
        metadata: {
          ...desired.metadata,
          uid: current.metadata.uid,
          creationTimestamp: current.metadata.creationTimestamp,
          deletionTimestamp: current.metadata.deletionTimestamp,
          generation: current.metadata.generation,
        },
      };
      if ('status' in current) next.status = structuredClone(current.status);
      else delete next.status;
      if (!deepEqual(stripMetaAndStatus(current), stripMetaAndStatus(next))) {
        next.metadata.generation = (current.metadata.generation ?? 0) + 1;
      }
    }
    if (deepEqual(next, current)) return structuredClone(current);
    if (next.metadata.deletionTimestamp && !(next.metadata.finalizers ?? []).length) {
      return this.#remove(collection, next);
    }
    return this.#store(collection, next, 'MODIFIED');
  }

  #remove(collection: string, obj: KubeObject): KubeObject {
    this.#objects.delete(this.#key(collection, obj.metadata.namespace, obj.metadata.name ?? ''));
    this.#rv++;
    obj.metadata.resourceVersion = String(this.#rv);
    this.#emit(collection, 'DELETED', obj);
    return structuredClone(obj);
  }

  #delete(collection: string, path: ParsedPath, body: { preconditions?: { uid?: string; resourceVersion?: string } } | undefined): unknown {
    const current = this.#existing(collection, path);
    const pre = body?.preconditions;
    if ((pre?.uid && pre.uid !== current.metadata.uid) || (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion)) {
      throw statusError(409, 'Conflict', 'Precondition failed');
    }
    if ((current.metadata.finalizers ?? []).length) {
      if (current.metadata.deletionTimestamp) return structuredClone(current);
      const next = structuredClone(current);
      next.metadata.deletionTimestamp = this.#now().toISOString().replace(/\.\d+Z$/, 'Z');
      next.metadata.generation = (current.metadata.generation ?? 0) + 1;
      return this.#store(collection, next, 'MODIFIED');
    }
    return this.#remove(collection, structuredClone(current));
  }
}
