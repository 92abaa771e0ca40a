import type { Clock } from './clock.ts';
import { systemClock } from './clock.ts';
import { EventCorrelator } from './event-correlator.ts';
import { isNamespaceTerminating, isNotFound, toKubeError } from './kube-errors.ts';
import type { KubeObject, ObjectName } from './kube-object.ts';
import { keyOf } from './kube-object.ts';
import type { Logger } from './logger.ts';
import { silentLogger } from './logger.ts';
import { formatMicroTime } from './micro-time.ts';
import { objectReference } from './object-references.ts';
import type { ObjectReference } from './object-references.ts';
import type { ResourceClient } from './resource-client.ts';

export type EventType = 'Normal' | 'Warning';

export interface EventInput {
  type: EventType;
  /** Why: CamelCase, e.g. `ProvisioningStarted`. */
  reason: string;
  /** What the controller did or failed to do, e.g. `Provision`. */
  action: string;
  /** Human-readable detail; cut to the API's 1 KiB (UTF-8 bytes) limit. */
  note?: string;
  related?: KubeObject;
}

/** events.k8s.io/v1 Event, as the recorder writes it. */
export interface EventObject extends KubeObject {
  eventTime: string;
  reportingController: string;
  reportingInstance: string;
  action: string;
  reason: string;
  note?: string;
  type: EventType;
  regarding: ObjectReference;
  related?: ObjectReference;
  series?: { count: number; lastObservedTime: string };
}

export interface EventRecorder {
  /**
   * Queues an Event (or a series update) and returns at once: the write happens in the
   * background, so a reconcile never waits for it, and a lost event never fails one
   * (client-go's recorder is asynchronous for the same reason). Never throws.
   */
  event(regarding: KubeObject, event: EventInput): void;
  /** Resolves once every Event queued so far is written or given up: for tests and shutdown. */
  flush(): Promise<void>;
}

export interface EventRecorderOptions {
  events: ResourceClient<EventObject>;
  /** e.g. `metal3.io/baremetalhost-controller`. */
  reportingController: string;
  /** This replica, e.g. the pod name. */
  reportingInstance: string;
  clock?: Clock;
  logger?: Logger;
  /** Repeats within this window become a series (default 6 minutes, as client-go). */
  seriesWindowMs?: number;
  maxCachedEvents?: number;
  /** Writes queued at once before new Events are dropped with a warning (client-go's broadcaster: 1000). */
  maxPendingWrites?: number;
}

const NOTE_LIMIT = 1024;
const FIELD_LIMIT = 128;

/**
 * Cuts `text` to at most `limit` UTF-8 bytes, marking the cut with `...`. The API server
 * counts bytes, not characters, so multi-byte text cut by length would be rejected (and
 * the Event lost); the cut never splits a character.
 */
function truncate(text: string, limit: number): string {
  if (Buffer.byteLength(text, 'utf8') <= limit) return text;
  let kept = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > limit - 3) break;
    kept += char;
    bytes += size;
  }
  return kept + '...';
}

export function createEventRecorder(options: EventRecorderOptions): EventRecorder {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger();
  const correlator = new EventCorrelator({ windowMs: options.seriesWindowMs, maxEntries: options.maxCachedEvents });
  // Writes for one key run in order, so a quick repeat sees the Event its predecessor created.
  const chains = new Map<string, Promise<void>>();
  const maxPending = options.maxPendingWrites ?? 1000;
  const pending = new Set<Promise<void>>();
  let dropped = 0;
  let sequence = 0;

  const eventName = (regarding: KubeObject, now: number): string =>
    // client-go: "<regarding name>.<unix nanos in hex>"; a counter keeps same-millisecond names apart.
    `${regarding.metadata.name ?? 'unknown'}.${(BigInt(now) * 1_000_000n + BigInt(sequence++ % 1_000_000)).toString(16)}`;

  const create = async (key: string, regarding: KubeObject, input: EventInput, now: number): Promise<void> => {
    const event: EventObject = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: eventName(regarding, now), namespace: regarding.metadata.namespace || 'default' },
      eventTime: formatMicroTime(now),
      reportingController: options.reportingController,
      reportingInstance: truncate(options.reportingInstance, FIELD_LIMIT),
      action: truncate(input.action, FIELD_LIMIT),
      reason: truncate(input.reason, FIELD_LIMIT),
      type: input.type,
      regarding: objectReference(regarding),
    };
    if (input.note) event.note = truncate(input.note, NOTE_LIMIT);
    if (input.related) event.related = objectReference(input.related);
    const created = await options.events.create(event);
    const name: ObjectName = { namespace: created.metadata.namespace, name: created.metadata.name ?? '' };
    correlator.created(key, name);
  };

  const write = async (key: string, regarding: KubeObject, input: EventInput): Promise<void> => {
    const now = clock.now();
    const decision = correlator.observe(key, now);
    if (decision.action === 'update') {
      try {
        const series = { count: decision.count, lastObservedTime: formatMicroTime(now) };
        await options.events.patch(decision.event, { series }, { type: 'merge' });
        return;
      } catch (error) {
        if (!isNotFound(error)) throw error;
        // The Event expired; start a new one.
        correlator.forget(key);
        correlator.observe(key, now);
      }
    }
    await create(key, regarding, input, now);
  };

  return {
    event(regarding, input) {
      if (pending.size >= maxPending) {
        // The API server is not keeping up; events are best effort, the reconcile is not.
        if (dropped++ % 100 === 0) logger.warn('dropping events: too many writes pending', { pending: pending.size, dropped, reason: input.reason });
        return;
      }
      const identity = {
        regarding: regarding.metadata.uid ?? keyOf({ namespace: regarding.metadata.namespace, name: regarding.metadata.name ?? '' }),
        type: input.type,
        reason: input.reason,
        action: input.action,
        note: input.note ?? '',
      };
      const key = EventCorrelator.keyOf(identity);
      const previous = chains.get(key) ?? Promise.resolve();
      const next = previous
        .then(() => write(key, regarding, input))
        .catch((error: unknown) => {
          correlator.forget(key);
          // A namespace being deleted refuses every new event: expected, not worth a warning each.
          const logAt = isNamespaceTerminating(error) ? logger.debug.bind(logger) : logger.warn.bind(logger);
          logAt('could not record event', { reason: input.reason, error: toKubeError(error) });
        });
      chains.set(key, next);
      pending.add(next);
      void next.then(() => {
        pending.delete(next);
        if (chains.get(key) === next) chains.delete(key);
      });
    },
    async flush() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
