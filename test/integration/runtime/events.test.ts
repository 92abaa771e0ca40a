import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '../../support/wait-for.ts';
import { EventResource, NamespaceResource, createEventRecorder, createResourceClient } from '../../../operator/runtime/index.ts';
import type { EventObject, EventRecorder, KubeClient, ResourceClient } from '../../../operator/runtime/index.ts';
import { Toy, createNamespace, installToyCrd, stackTransport, testLogger } from './toy-cluster.ts';
import type { ToyObject } from './toy-cluster.ts';

// The integration project's testTimeout is not applied per project by jest 30; set it here.
jest.setTimeout(180_000);

const run = promisify(execFile);

describe('event recorder against a real API server', () => {
  let transport: KubeClient;
  let kubeconfig: string;
  let kubectl: string;
  let namespace: string;
  let toy: ToyObject;
  let events: ResourceClient<EventObject>;

  beforeAll(async () => {
    ({ transport, kubeconfig, kubectl } = stackTransport());
    await installToyCrd(transport);
    namespace = await createNamespace(transport, 'rt-events');
    toy = await createResourceClient<ToyObject>(transport, Toy).create({ metadata: { name: 'noisy', namespace }, spec: { value: 1 } });
    events = createResourceClient<EventObject>(transport, EventResource);
  });

  /** The recorder never rejects, so what it wrote is read back from the API. */
  const recorded = async (eventNamespace: string, reason: string): Promise<EventObject[]> =>
    (await events.list({ namespace: eventNamespace })).items.filter((e) => e.reason === reason);

  const newRecorder = (reportingInstance = 'runtime-test-0'): EventRecorder =>
    createEventRecorder({
      events,
      reportingController: 'runtime-test.metal3-ts.io/toy-controller',
      reportingInstance,
      logger: testLogger(),
    });

  it('records an events.k8s.io/v1 Event that kubectl shows, folding repeats into a series', async () => {
    const recorder = newRecorder();
    const input = { type: 'Warning', reason: 'PowerOnFailed', action: 'PowerOn', note: 'BMC did not answer' } as const;
    recorder.event(toy, input);
    await recorder.flush();
    recorder.event(toy, input);
    await recorder.flush();
    recorder.event(toy, input);
    await recorder.flush();

    const { stdout } = await run(kubectl, ['--kubeconfig', kubeconfig, 'get', 'events', '-n', namespace]);
    expect(stdout).toContain('PowerOnFailed');
    expect(stdout).toContain('BMC did not answer');
    expect(stdout).toContain('toy/noisy');

    const listed = await waitFor(
      async () => {
        const { stdout: json } = await run(kubectl, ['--kubeconfig', kubeconfig, 'get', 'events.events.k8s.io', '-n', namespace, '-o', 'json']);
        const items = (JSON.parse(json) as { items: EventObject[] }).items.filter((e) => e.reason === 'PowerOnFailed');
        return items.length === 1 && items[0]?.series?.count === 3 ? items : undefined;
      },
      { timeoutMs: 10_000, what: 'one PowerOnFailed event with a series of 3' },
    );
    expect(listed[0]).toMatchObject({
      reportingController: 'runtime-test.metal3-ts.io/toy-controller',
      reportingInstance: 'runtime-test-0',
      action: 'PowerOn',
      type: 'Warning',
      regarding: { kind: 'Toy', name: 'noisy', namespace, uid: toy.metadata.uid },
    });
    expect(listed[0]?.eventTime).toMatch(/\.\d{6}Z$/);
  });

  it('starts a fresh Event when the one a repeat would fold into has expired (deleted)', async () => {
    const recorder = newRecorder();
    const input = { type: 'Normal', reason: 'InspectionStarted', action: 'Inspect' } as const;
    recorder.event(toy, input);
    await recorder.flush();
    const [first] = await recorded(namespace, 'InspectionStarted');
    expect(first?.series).toBeUndefined();
    await events.delete({ namespace, name: first?.metadata.name ?? '' });

    recorder.event(toy, input);
    await recorder.flush();
    const after = await recorded(namespace, 'InspectionStarted');
    expect(after).toHaveLength(1);
    expect(after[0]?.metadata.name).not.toBe(first?.metadata.name);
    expect(after[0]?.series).toBeUndefined();
    // Later repeats fold into the new Event.
    recorder.event(toy, input);
    await recorder.flush();
    expect((await recorded(namespace, 'InspectionStarted')).map((e) => [e.metadata.name, e.series?.count])).toEqual([
      [after[0]?.metadata.name, 2],
    ]);
  });

  it('gets Events about cluster-scoped objects and over-long text past API validation', async () => {
    // The API server counts bytes: multi-byte text must be cut to the byte limits.
    const recorder = newRecorder(`runtime-test-${'é'.repeat(100)}`);
    const namespaceObject = await createResourceClient(transport, NamespaceResource).get({ name: namespace });
    const reason = `LongNote${'é'.repeat(200)}`;
    recorder.event(namespaceObject, { type: 'Normal', reason, action: 'Note', note: 'x'.repeat(5000) });
    await recorder.flush();
    recorder.event(toy, { type: 'Warning', reason, action: 'Note', note: `BMC said: ${'ü'.repeat(3000)}` });
    await recorder.flush();

    const inDefault = (await events.list({ namespace: 'default' })).items.filter((e) => e.regarding.name === namespace);
    expect(inDefault).toHaveLength(1);
    expect(inDefault[0]?.regarding).toMatchObject({ apiVersion: 'v1', kind: 'Namespace', name: namespace });
    expect(inDefault[0]?.note).toHaveLength(1024);

    const multiByte = (await events.list({ namespace })).items.filter((e) => e.action === 'Note');
    expect(multiByte).toHaveLength(1);
    const byteLength = (text = '') => Buffer.byteLength(text, 'utf8');
    expect(byteLength(multiByte[0]?.note)).toBeLessThanOrEqual(1024);
    expect(byteLength(multiByte[0]?.reason)).toBeLessThanOrEqual(128);
    expect(byteLength(multiByte[0]?.reportingInstance)).toBeLessThanOrEqual(128);
    expect(multiByte[0]?.note?.startsWith('BMC said: üü')).toBe(true);
  });
});
