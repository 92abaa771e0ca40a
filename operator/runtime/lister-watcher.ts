import { isGone } from './kube-errors.ts';
import { apiVersionOf } from './kube-object.ts';
import type { KubeObject } from './kube-object.ts';
import type { ResourceClient, WatchEvent } from './resource-client.ts';

/** The list and watch calls an informer is built on (client-go `cache.ListerWatcher`). */
export interface ListerWatcher<T extends KubeObject = KubeObject> {
  list(options: { signal: AbortSignal }): Promise<{ items: T[]; resourceVersion: string }>;
  /**
   * Streams events after `resourceVersion` until the server ends the watch (resolves) or it
   * fails (rejects; a 410 Expired means the version is too old and the caller must relist).
   */
  watch(options: { resourceVersion: string; signal: AbortSignal }, onEvent: (event: WatchEvent<T>) => void): Promise<void>;
}

export interface ListerWatcherOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size of the initial list; keeps memory bounded for big collections. */
  pageSize?: number;
  random?: () => number;
}

/** A ListerWatcher over a ResourceClient: paginated consistent lists, bookmarked watches. */
export function listerWatcherFor<T extends KubeObject>(
  client: ResourceClient<T>,
  options: ListerWatcherOptions = {},
): ListerWatcher<T> {
  const random = options.random ?? Math.random;
  const pageSize = options.pageSize ?? 500;
  const apiVersion = apiVersionOf(client.resource);
  const kind = client.resource.kind;
  // List items come without apiVersion/kind; watch events carry them. Make both alike.
  const complete = (object: T): T => (object.kind ? object : { ...object, apiVersion, kind });
  const selectors = {
    namespace: options.namespace,
    labelSelector: options.labelSelector,
    fieldSelector: options.fieldSelector,
  };

  const listAll = async (signal: AbortSignal, limit: number | undefined) => {
    const items: T[] = [];
    let continueToken: string | undefined;
    let resourceVersion = '';
    do {
      const page = await client.list({ ...selectors, limit, continue: continueToken, signal });
      items.push(...page.items.map(complete));
      continueToken = page.metadata.continue || undefined;
      resourceVersion = page.metadata.resourceVersion ?? resourceVersion;
    } while (continueToken);
    return { items, resourceVersion };
  };

  return {
    async list({ signal }) {
      try {
        return await listAll(signal, pageSize);
      } catch (error) {
        // A continue token can expire between pages; fall back to one unpaginated list.
        if (isGone(error)) return listAll(signal, undefined);
        throw error;
      }
    },
    watch({ resourceVersion, signal }, onEvent) {
      return client.watch(
        {
          ...selectors,
          resourceVersion,
          allowWatchBookmarks: true,
          // Like client-go's reflector: 5–10 minutes, so replicas do not reconnect in step.
          timeoutSeconds: Math.floor(300 * (1 + random())),
          signal,
        },
        (event) => onEvent({ type: event.type, object: complete(event.object) }),
      );
    },
  };
}
