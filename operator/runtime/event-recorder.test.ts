import { describe, it, expect } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import { createEventRecorder } from './event-recorder.ts';
import type { EventObject } from './event-recorder.ts';
import type { KubeRequest, KubeTransport } from './kube-client.ts';
import type { KubeObject } from './kube-object.ts';
import { createResourceClient } from './resource-client.ts';
import type { Logger } from './logger.ts';
import { EventResource } from './resources.ts';
import { FakeClock, flushPromises } from './testing/fake-clock.ts';

// How the real events.k8s.io API takes these writes (validation, series, expiry) is
// tested in test/integration/runtime/events.test.ts.

const host: KubeObject = {
  apiVersion: 'metal3.io/v1alpha1',
  kind: 'BareMetalHost',
  metadata: { name: 'h1', namespace: 'ns', uid: 'uid-h1' },
};

const notFound = () => new ApiException(404, 'PATCH failed', '{"kind":"Status","code":404,"reason":"NotFound"}', {});

/**
 * Records every request. Answers come from `reply` (default: a create echoes the Event it
 * was sent, a patch answers `{}`), so each test scripts only what it needs.
 */
function setup(reply?: (request: KubeRequest) => unknown, logger?: Logger) {
  const requests: KubeRequest[] = [];
  const transport: KubeTransport = {
    async request<T>(request: KubeRequest): Promise<T> {
      requests.push(request);
      await Promise.resolve();
      const answer = reply ? reply(request) : request.method === 'POST' ? request.body : {};
      return (await answer) as T;
    },
    watch: () => Promise.reject(new Error('not used')),
  };
  const clock = new FakeClock(Date.parse('2026-05-06T07:08:09.123Z'));
  const queued = createEventRecorder({
    events: createResourceClient<EventObject>(transport, EventResource),
    reportingController: 'metal3.io/baremetalhost-controller',
    reportingInstance: 'bmo-7d9f-abc',
    clock,
    seriesWindowMs: 60_000,
    maxPendingWrites: 5,
    ...(logger ? { logger } : {}),
  });
  // Most tests look at what was written: queue, then wait for the writes.
  const recorder = {
    event: async (regarding: KubeObject, input: Parameters<typeof queued.event>[1]): Promise<void> => {
      queued.event(regarding, input);
      await queued.flush();
    },
  };
  const creates = () => requests.filter((r) => r.method === 'POST').map((r) => r.body as EventObject);
  const patches = () => requests.filter((r) => r.method === 'PATCH');
  return { requests, clock, recorder, queued, creates, patches };
}

describe('event recorder', () => {
  it('returns before the API answers, so a reconcile never waits for an event; flush waits for the writes', async () => {
    let answer!: () => void;
    const { queued, requests } = setup((request) => new Promise((resolve) => (answer = () => resolve(request.body))));
    expect(queued.event(host, { type: 'Normal', reason: 'Registered', action: 'Register' })).toBeUndefined();
    await flushPromises();
    expect(requests.map((r) => r.method)).toEqual(['POST']);
    let flushed = false;
    const flushing = queued.flush().then(() => (flushed = true));
    await flushPromises();
    expect(flushed).toBe(false);
    answer();
    await flushing;
    expect(flushed).toBe(true);
  });

  it('drops new events while too many writes are pending, and takes them again once the API caught up', async () => {
    const answers: Array<() => void> = [];
    const { queued, requests } = setup((request) => new Promise((resolve) => answers.push(() => resolve(request.body))));
    for (let i = 0; i < 8; i++) queued.event(host, { type: 'Normal', reason: `R${i}`, action: 'X' });
    await flushPromises();
    expect(requests).toHaveLength(5);
    for (const answer of answers.splice(0)) answer();
    await queued.flush();
    queued.event(host, { type: 'Normal', reason: 'Later', action: 'X' });
    await flushPromises();
    expect(requests).toHaveLength(6);
    for (const answer of answers.splice(0)) answer();
    await queued.flush();
  });

  it('creates an events.k8s.io/v1 Event with MicroTime and the reporting fields', async () => {
    const { recorder, requests } = setup();
    await recorder.event(host, { type: 'Normal', reason: 'Registered', action: 'Register', note: 'registered with Ironic' });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request).toMatchObject({ method: 'POST', path: '/apis/events.k8s.io/v1/namespaces/ns/events' });
    expect(request?.body).toEqual({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: expect.stringMatching(/^h1\.[0-9a-f]+$/), namespace: 'ns' },
      eventTime: '2026-05-06T07:08:09.123000Z',
      reportingController: 'metal3.io/baremetalhost-controller',
      reportingInstance: 'bmo-7d9f-abc',
      action: 'Register',
      reason: 'Registered',
      note: 'registered with Ironic',
      type: 'Normal',
      regarding: { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', namespace: 'ns', name: 'h1', uid: 'uid-h1' },
    });
  });

  it('names Events apart even within the same millisecond, and records the related object', async () => {
    const { recorder, creates } = setup();
    const related: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bmc', namespace: 'ns', uid: 'uid-s' } };
    await recorder.event(host, { type: 'Normal', reason: 'A', action: 'X' });
    await recorder.event(host, { type: 'Normal', reason: 'B', action: 'X', related });
    const [first, second] = creates();
    expect(first?.metadata.name).not.toBe(second?.metadata.name);
    expect(first?.related).toBeUndefined();
    expect(second?.related).toMatchObject({ kind: 'Secret', name: 'bmc', uid: 'uid-s' });
  });

  it('folds repeats within the window into a series, patching the Event it created', async () => {
    const { recorder, creates, patches, clock } = setup();
    const input = { type: 'Warning', reason: 'PowerFailed', action: 'PowerOn', note: 'BMC timeout' } as const;
    await recorder.event(host, input);
    await clock.advance(1000);
    await recorder.event(host, input);
    await clock.advance(1000);
    await recorder.event(host, input);
    expect(creates()).toHaveLength(1);
    const name = creates()[0]?.metadata.name;
    expect(patches().map((p) => [p.path, p.contentType, p.body])).toEqual([
      [`/apis/events.k8s.io/v1/namespaces/ns/events/${name}`, 'application/merge-patch+json', { series: { count: 2, lastObservedTime: '2026-05-06T07:08:10.123000Z' } }],
      [`/apis/events.k8s.io/v1/namespaces/ns/events/${name}`, 'application/merge-patch+json', { series: { count: 3, lastObservedTime: '2026-05-06T07:08:11.123000Z' } }],
    ]);
  });

  it('keeps different events apart: another reason, note or object is a new Event', async () => {
    const { recorder, creates, patches } = setup();
    const other: KubeObject = { ...host, metadata: { ...host.metadata, name: 'h2', uid: 'uid-h2' } };
    await recorder.event(host, { type: 'Normal', reason: 'A', action: 'X', note: 'one' });
    await recorder.event(host, { type: 'Normal', reason: 'A', action: 'X', note: 'two' });
    await recorder.event(host, { type: 'Normal', reason: 'B', action: 'X', note: 'one' });
    await recorder.event(other, { type: 'Normal', reason: 'A', action: 'X', note: 'one' });
    expect(creates()).toHaveLength(4);
    expect(patches()).toHaveLength(0);
  });

  it('serialises concurrent repeats: patches wait for the create, so there is no duplicate', async () => {
    let answerCreate!: () => void;
    const { recorder, requests } = setup((request) =>
      request.method === 'POST' ? new Promise((resolve) => (answerCreate = () => resolve(request.body))) : {},
    );
    const input = { type: 'Normal', reason: 'Busy', action: 'Wait' } as const;
    const all = Promise.all([recorder.event(host, input), recorder.event(host, input), recorder.event(host, input)]);
    await flushPromises();
    expect(requests.map((r) => r.method)).toEqual(['POST']);
    answerCreate();
    await all;
    expect(requests.map((r) => r.method)).toEqual(['POST', 'PATCH', 'PATCH']);
    expect(requests.slice(1).map((r) => (r.body as EventObject).series?.count)).toEqual([2, 3]);
  });

  it('starts a new Event after the window has passed', async () => {
    const { recorder, creates, patches, clock } = setup();
    const input = { type: 'Normal', reason: 'Polled', action: 'Poll' } as const;
    await recorder.event(host, input);
    await clock.advance(61_000);
    await recorder.event(host, input);
    expect(creates()).toHaveLength(2);
    expect(patches()).toHaveLength(0);
    expect(creates()[1]?.eventTime).toBe('2026-05-06T07:09:10.123000Z');
  });

  it('creates a fresh Event, without a series, when the one it would patch has expired', async () => {
    let expired = true;
    const { recorder, requests, creates, clock } = setup((request) => {
      if (request.method === 'POST') return request.body;
      if (expired) throw notFound();
      return {};
    });
    const input = { type: 'Normal', reason: 'Polled', action: 'Poll' } as const;
    await recorder.event(host, input);
    await clock.advance(1000);
    await recorder.event(host, input);
    expect(requests.map((r) => r.method)).toEqual(['POST', 'PATCH', 'POST']);
    expect(creates()[1]?.series).toBeUndefined();
    expect(creates()[1]?.metadata.name).not.toBe(creates()[0]?.metadata.name);
    // The new Event is the one later repeats fold into.
    expired = false;
    await recorder.event(host, input);
    expect(requests.map((r) => r.method)).toEqual(['POST', 'PATCH', 'POST', 'PATCH']);
    expect((requests.at(-1)?.body as EventObject).series?.count).toBe(2);
    expect(requests.at(-1)?.path).toBe(`/apis/events.k8s.io/v1/namespaces/ns/events/${creates()[1]?.metadata.name}`);
  });

  it('never rejects when the API refuses the event, and tries a fresh create next time', async () => {
    let refuse = true;
    const { recorder, requests } = setup((request) => {
      if (refuse) throw new ApiException(403, 'forbidden', '{"code":403,"reason":"Forbidden"}', {});
      return request.body;
    });
    await expect(recorder.event(host, { type: 'Normal', reason: 'X', action: 'Y' })).resolves.toBeUndefined();
    refuse = false;
    await recorder.event(host, { type: 'Normal', reason: 'X', action: 'Y' });
    expect(requests.map((r) => r.method)).toEqual(['POST', 'POST']);
  });

  it('logs a refusal at warn, but one from a namespace being deleted (it refuses every new event) only at debug', async () => {
    const lines: string[] = [];
    const logger: Logger = {
      error: (message) => lines.push(`error ${message}`),
      warn: (message) => lines.push(`warn ${message}`),
      info: (message) => lines.push(`info ${message}`),
      debug: (message) => lines.push(`debug ${message}`),
      child: () => logger,
    };
    const terminating = JSON.stringify({ kind: 'Status', code: 403, reason: 'Forbidden',
      message: 'unable to create new content in namespace ns because it is being terminated',
      details: { causes: [{ reason: 'NamespaceTerminating', field: 'metadata.namespace', message: 'namespace ns is being terminated' }] } });
    const { recorder } = setup((request) => {
      const body = (request.body as EventObject).reason === 'Terminating' ? terminating : '{"code":403,"reason":"Forbidden"}';
      throw new ApiException(403, 'forbidden', body, {});
    }, logger);
    await recorder.event(host, { type: 'Normal', reason: 'Refused', action: 'Y' });
    await recorder.event(host, { type: 'Normal', reason: 'Terminating', action: 'Y' });
    expect(lines).toEqual(['warn could not record event', 'debug could not record event']);
  });

  it('cuts notes to the 1 KiB API limit and files cluster-scoped objects under default', async () => {
    const { recorder, creates } = setup();
    const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'uid-n1' } };
    await recorder.event(node, { type: 'Normal', reason: 'Long', action: 'Note', note: 'x'.repeat(5000) });
    const [event] = creates();
    expect(event?.note).toHaveLength(1024);
    expect(event?.note?.endsWith('...')).toBe(true);
    expect(event?.metadata.namespace).toBe('default');
    expect(event?.regarding).toEqual({ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'uid-n1' });
  });

  it('cuts by UTF-8 bytes, as the API server counts, never splitting a character', async () => {
    const { recorder, creates } = setup();
    const bytes = (text = '') => Buffer.byteLength(text, 'utf8');
    await recorder.event(host, { type: 'Warning', reason: 'Fehlgeschlagen' + 'ü'.repeat(100), action: 'Über'.repeat(40), note: 'BMC: ' + '🔥'.repeat(400) });
    const [event] = creates();
    expect(bytes(event?.note)).toBeLessThanOrEqual(1024);
    expect(bytes(event?.note)).toBeGreaterThan(1016);
    expect(event?.note).toMatch(/^BMC: (🔥)+\.\.\.$/u);
    expect(bytes(event?.reason)).toBeLessThanOrEqual(128);
    expect(event?.reason).toMatch(/^Fehlgeschlagen(ü)+\.\.\.$/u);
    expect(bytes(event?.action)).toBeLessThanOrEqual(128);
    // Text within the limits is left alone, whatever its length in characters.
    await recorder.event(host, { type: 'Normal', reason: 'ü'.repeat(64), action: 'X', note: 'é'.repeat(512) });
    expect(creates()[1]).toMatchObject({ reason: 'ü'.repeat(64), note: 'é'.repeat(512) });
  });
});
