// Watches the run's BareMetalHosts and notes, per host, each provisioning state with the moment
// this process saw it: the operator's phase times and the timeline the BMO estimate needs.
import { setTimeout as sleep } from 'node:timers/promises';
import type { BareMetalHost } from '../../../operator/api/baremetalhost.ts';
import { BareMetalHostResource } from '../../../operator/api/baremetalhost.ts';
import { Informer, createResourceClient, listerWatcherFor } from '../../../operator/runtime/index.ts';
import type { KubeTransport } from '../../../operator/runtime/index.ts';
import type { StateVisit } from '../report/bmo-estimate.ts';

export interface HostTracker {
  /** Every state the host was seen in, in order. */
  visits(name: string): readonly StateVisit[];
  /** The host's visits in [startMs, endMs], led by the state it was in at startMs. */
  visitsDuring(name: string, window: { startMs: number; endMs: number }): StateVisit[];
  /** Per host, when it was first seen in `state` at or after `sinceMs`; undefined at the deadline. */
  waitForState(names: readonly string[], state: string, options: { sinceMs: number; deadlineMs: number }): Promise<Array<number | undefined>>;
  /** Hosts that were never seen again in `state`, with their last error, for the notes. */
  lastErrors(names: readonly string[]): Map<string, string>;
  present(): number;
  stop(): Promise<void>;
}

export async function startHostTracker(options: { transport: KubeTransport; namespace: string }): Promise<HostTracker> {
  const client = createResourceClient<BareMetalHost>(options.transport, BareMetalHostResource);
  const informer = new Informer<BareMetalHost>({ name: 'bench-hosts', listerWatcher: listerWatcherFor(client, { namespace: options.namespace }) });
  const visits = new Map<string, StateVisit[]>();
  const errors = new Map<string, string>();
  const seen = (host: BareMetalHost) => {
    const name = host.metadata.name ?? '';
    const state = host.status?.provisioning?.state ?? '';
    const list = visits.get(name) ?? [];
    if (list.at(-1)?.state !== state) list.push({ state, atMs: Date.now() });
    visits.set(name, list);
    if (host.status?.errorType) errors.set(name, `${host.status.errorType}: ${host.status.errorMessage ?? ''}`);
  };
  informer.addHandler({ onAdd: seen, onUpdate: (_old, host) => seen(host) });
  const stop = new AbortController();
  const running = informer.run(stop.signal);
  await informer.waitForSync(stop.signal);
  const firstAt = (name: string, state: string, sinceMs: number) =>
    visits.get(name)?.find((visit) => visit.state === state && visit.atMs >= sinceMs)?.atMs;
  return {
    visits: (name) => visits.get(name) ?? [],
    visitsDuring: (name, window) => {
      const all = visits.get(name) ?? [];
      const before = all.filter((visit) => visit.atMs <= window.startMs).at(-1);
      const during = all.filter((visit) => visit.atMs > window.startMs && visit.atMs <= window.endMs);
      return before ? [before, ...during] : during;
    },
    waitForState: async (names, state, { sinceMs, deadlineMs }) => {
      while (Date.now() < deadlineMs && names.some((name) => firstAt(name, state, sinceMs) === undefined)) await sleep(200);
      return names.map((name) => firstAt(name, state, sinceMs));
    },
    lastErrors: (names) => new Map(names.filter((name) => errors.has(name)).map((name) => [name, errors.get(name) as string])),
    present: () => informer.list().length,
    stop: async () => {
      stop.abort();
      await running;
    },
  };
}
