import { describe, it, expect } from '@jest/globals';
import { createEventRecorder } from './event-recorder.ts';
import type { EventObject } from './event-recorder.ts';
import type { KubeObject } from './kube-object.ts';
import { createResourceClient } from './resource-client.ts';
import { EventResource } from './resources.ts';
import { FakeApiServer } from './testing/fake-api-server.ts';
import { FakeClock } from './testing/fake-clock.ts';

const host: KubeObject = {
  apiVersion: 'metal3.io/v1alpha1',
  kind: 'BareMetalHost',
  metadata: { name: 'h1', namespace: 'ns', uid: 'uid-h1' },
};

function setup() {
  const api = new FakeApiServer();
  const clock = new FakeClock(Date.parse('2026-05-06T07:08:09.123Z'));
  const recorder = createEventRecorder({
    events: createResourceClient<EventObject>(api, EventResource),
    reportingController: 'metal3.io/baremetalhost-controller',
    reportingInstance: 'bmo-7d9f-abc',
    clock,
    seriesWindowMs: 60_000,
  });
  const events = () => api.objects('events') as EventObject[];
  return { api, clock, recorder, events };
}

describe('event recorder', () => {
  it('writes an events.k8s.io/v1 Event with MicroTime and the reporting fields', async () => {
    const { recorder, events } = setup();
    await recorder.event(host, { type: 'Normal', reason: 'Registered', action: 'Register', note: 'registered with Ironic' });
    const [event] = events();
    expect(event).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { namespace: 'ns' },
      eventTime: '2026-05-06T07:08:09.123000Z',
      reportingController: 'metal3.io/baremetalhost-controller',
      reportingInstance: 'bmo-7d9f-abc',
      action: 'Register',
      reason: 'Registered',
      note: 'registered with Ironic',
      type: 'Normal',
      regarding: { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', namespace: 'ns', name: 'h1', uid: 'uid-h1' },
    });
    expect(event?.metadata.name).toMatch(/^h1\.[0-9a-f]+$/);
  });

  it('turns repeats within the window into a series on the same Event', async () => {
    const { recorder, events, clock } = setup();
    const input = { type: 'Warning', reason: 'PowerFailed', action: 'PowerOn', note: 'BMC timeout' } as const;
    await recorder.event(host, input);
    await clock.advance(1000);
    await recorder.event(host, input);
    await clock.advance(1000);
    await recorder.event(host, input);
    expect(events()).toHaveLength(1);
    expect(events()[0]?.series).toEqual({ count: 3, lastObservedTime: '2026-05-06T07:08:11.123000Z' });
  });

  it('serialises concurrent repeats so they do not create duplicates', async () => {
    const { recorder, events } = setup();
    const input = { type: 'Normal', reason: 'Busy', action: 'Wait' } as const;
    await Promise.all([recorder.event(host, input), recorder.event(host, input), recorder.event(host, input)]);
    expect(events()).toHaveLength(1);
    expect(events()[0]?.series?.count).toBe(3);
  });

  it('creates a new Event after the window, or when the old one has expired', async () => {
    const { api, recorder, events, clock } = setup();
    const input = { type: 'Normal', reason: 'Polled', action: 'Poll' } as const;
    await recorder.event(host, input);
    await clock.advance(61_000);
    await recorder.event(host, input);
    expect(events()).toHaveLength(2);
    for (const e of events()) await api.request({ method: 'DELETE', path: `/apis/events.k8s.io/v1/namespaces/ns/events/${e.metadata.name}` });
    await recorder.event(host, input);
    expect(events()).toHaveLength(1);
    expect(events()[0]?.series).toBeUndefined();
  });

  it('never rejects, even when the API refuses the event', async () => {
    const { api, recorder, events } = setup();
    api.intercept = () => {
      throw new Error('forbidden');
    };
    await expect(recorder.event(host, { type: 'Normal', reason: 'X', action: 'Y' })).resolves.toBeUndefined();
    api.intercept = undefined;
    await recorder.event(host, { type: 'Normal', reason: 'X', action: 'Y' });
    expect(events()).toHaveLength(1);
  });

  it('cuts notes to the 1 KiB API limit and files cluster-scoped objects under default', async () => {
    const { recorder, events } = setup();
    const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'uid-n1' } };
    await recorder.event(node, { type: 'Normal', reason: 'Long', action: 'Note', note: 'x'.repeat(5000) });
    expect(events()[0]?.note).toHaveLength(1024);
    expect(events()[0]?.metadata.namespace).toBe('default');
  });
});
