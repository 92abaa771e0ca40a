import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '../../support/wait-for.ts';
import { EventResource, createEventRecorder, createResourceClient } from '../../../operator/runtime/index.ts';
import type { EventObject, KubeClient } from '../../../operator/runtime/index.ts';
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

  beforeAll(async () => {
    ({ transport, kubeconfig, kubectl } = stackTransport());
    await installToyCrd(transport);
    namespace = await createNamespace(transport, 'rt-events');
    toy = await createResourceClient<ToyObject>(transport, Toy).create({ metadata: { name: 'noisy', namespace }, spec: { value: 1 } });
  });

  it('records an events.k8s.io/v1 Event that kubectl shows, folding repeats into a series', async () => {
    const recorder = createEventRecorder({
      events: createResourceClient<EventObject>(transport, EventResource),
      reportingController: 'runtime-test.metal3-ts.io/toy-controller',
      reportingInstance: 'runtime-test-0',
      logger: testLogger(),
    });
    const input = { type: 'Warning', reason: 'PowerOnFailed', action: 'PowerOn', note: 'BMC did not answer' } as const;
    await recorder.event(toy, input);
    await recorder.event(toy, input);
    await recorder.event(toy, input);

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
});
