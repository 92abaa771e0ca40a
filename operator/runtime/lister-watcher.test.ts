import { describe, it, expect } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import type { KubeRequest, KubeTransport, RawWatchEvent, WatchRequest } from './kube-client.ts';
import type { KubeObject, ResourceType } from './kube-object.ts';
import { listerWatcherFor } from './lister-watcher.ts';
import { createResourceClient } from './resource-client.ts';
import type { WatchEvent } from './resource-client.ts';

const Toy: ResourceType = { group: 'example.com', version: 'v1', kind: 'Toy', plural: 'toys', namespaced: true };

/** Answers requests from a queue of canned replies (an Error is thrown) and streams canned watch events. */
class ScriptedTransport implements KubeTransport {
  readonly requests: KubeRequest[] = [];
  readonly watchRequests: WatchRequest[] = [];
  readonly #replies: unknown[];
  readonly #watchEvents: RawWatchEvent[];

  constructor(replies: unknown[], watchEvents: RawWatchEvent[] = []) {
    this.#replies = [...replies];
    this.#watchEvents = watchEvents;
  }

  async request<T>(request: KubeRequest): Promise<T> {
    this.requests.push(request);
    if (!this.#replies.length) throw new Error(`unexpected ${request.method} ${request.path}`);
    const reply = this.#replies.shift();
    if (reply instanceof Error) throw reply;
    return reply as T;
  }

  async watch(request: WatchRequest, onEvent: (event: RawWatchEvent) => void): Promise<void> {
    this.watchRequests.push(request);
    for (const event of this.#watchEvents) onEvent(event);
  }
}

const page = (names: string[], resourceVersion: string, continueToken?: string) => ({
  metadata: { resourceVersion, continue: continueToken },
  items: names.map((name) => ({ metadata: { name, namespace: 'ns' } })),
});
const expired = () =>
  new ApiException(410, 'GET failed', '{"kind":"Status","code":410,"reason":"Expired","message":"The provided continue parameter is too old"}', {});

describe('listerWatcherFor', () => {
  it('lists page by page with the selectors, giving items their apiVersion and kind', async () => {
    const transport = new ScriptedTransport([page(['a', 'b'], '7', 'token-1'), page(['c'], '7')]);
    const lw = listerWatcherFor(createResourceClient(transport, Toy), { namespace: 'ns', labelSelector: 'app=x', pageSize: 2 });
    const listed = await lw.list({ signal: new AbortController().signal });
    expect(listed.resourceVersion).toBe('7');
    expect(listed.items.map((o) => [o.apiVersion, o.kind, o.metadata.name])).toEqual([
      ['example.com/v1', 'Toy', 'a'],
      ['example.com/v1', 'Toy', 'b'],
      ['example.com/v1', 'Toy', 'c'],
    ]);
    expect(transport.requests.map((r) => [r.method, r.path, r.query?.limit, r.query?.continue, r.query?.labelSelector])).toEqual([
      ['GET', '/apis/example.com/v1/namespaces/ns/toys', 2, undefined, 'app=x'],
      ['GET', '/apis/example.com/v1/namespaces/ns/toys', 2, 'token-1', 'app=x'],
    ]);
  });

  it('falls back to one unpaginated list when a continue token expires between pages', async () => {
    const transport = new ScriptedTransport([page(['a'], '7', 'token-1'), expired(), page(['a', 'b'], '9')]);
    const lw = listerWatcherFor(createResourceClient(transport, Toy), { pageSize: 1 });
    const listed = await lw.list({ signal: new AbortController().signal });
    expect(listed).toMatchObject({ resourceVersion: '9', items: [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }] });
    expect(transport.requests.map((r) => [r.path, r.query?.limit, r.query?.continue])).toEqual([
      ['/apis/example.com/v1/toys', 1, undefined],
      ['/apis/example.com/v1/toys', 1, 'token-1'],
      ['/apis/example.com/v1/toys', undefined, undefined],
    ]);
  });

  it('passes other list failures on', async () => {
    const transport = new ScriptedTransport([new ApiException(403, 'forbidden', '{"code":403,"reason":"Forbidden"}', {})]);
    const lw = listerWatcherFor(createResourceClient(transport, Toy));
    await expect(lw.list({ signal: new AbortController().signal })).rejects.toMatchObject({ code: 403 });
    expect(transport.requests).toHaveLength(1);
  });

  it('watches from a resourceVersion with bookmarks and a spread-out server timeout', async () => {
    const transport = new ScriptedTransport(
      [],
      [
        { type: 'ADDED', object: { metadata: { name: 'a', namespace: 'ns', resourceVersion: '8' } } },
        { type: 'MODIFIED', object: { apiVersion: 'example.com/v1', kind: 'Toy', metadata: { name: 'a', namespace: 'ns', resourceVersion: '9' } } },
      ],
    );
    const lw = listerWatcherFor(createResourceClient(transport, Toy), { namespace: 'ns', fieldSelector: 'metadata.name=a', random: () => 0.5 });
    const signal = new AbortController().signal;
    const events: WatchEvent<KubeObject>[] = [];
    await lw.watch({ resourceVersion: '7', signal }, (event) => events.push(event));
    expect(transport.watchRequests).toEqual([
      {
        path: '/apis/example.com/v1/namespaces/ns/toys',
        query: {
          labelSelector: undefined,
          fieldSelector: 'metadata.name=a',
          resourceVersion: '7',
          allowWatchBookmarks: true,
          timeoutSeconds: 450,
        },
        signal,
      },
    ]);
    expect(events.map((e) => [e.type, e.object.kind, e.object.metadata.resourceVersion])).toEqual([
      ['ADDED', 'Toy', '8'],
      ['MODIFIED', 'Toy', '9'],
    ]);
  });
});
