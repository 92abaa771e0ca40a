import { describe, it, expect } from '@jest/globals';
import { EventCorrelator } from './event-correlator.ts';

const identity = { regarding: 'uid-1', type: 'Normal', reason: 'Registered', action: 'Register', note: 'ok' };

describe('EventCorrelator', () => {
  it('creates first, then folds repeats within the window into a series starting at 2', () => {
    const correlator = new EventCorrelator({ windowMs: 60_000 });
    const key = EventCorrelator.keyOf(identity);
    expect(correlator.observe(key, 0)).toEqual({ action: 'create' });
    correlator.created(key, { namespace: 'ns', name: 'h.1' });
    expect(correlator.observe(key, 10_000)).toEqual({ action: 'update', event: { namespace: 'ns', name: 'h.1' }, count: 2 });
    expect(correlator.observe(key, 20_000)).toEqual({ action: 'update', event: { namespace: 'ns', name: 'h.1' }, count: 3 });
  });

  it('measures the window from the last repeat and starts a new Event after it', () => {
    const correlator = new EventCorrelator({ windowMs: 60_000 });
    const key = EventCorrelator.keyOf(identity);
    correlator.observe(key, 0);
    correlator.created(key, { namespace: 'ns', name: 'h.1' });
    expect(correlator.observe(key, 50_000).action).toBe('update');
    expect(correlator.observe(key, 100_000).action).toBe('update');
    expect(correlator.observe(key, 160_001)).toEqual({ action: 'create' });
  });

  it('keeps different notes, reasons and objects apart', () => {
    const correlator = new EventCorrelator();
    const a = EventCorrelator.keyOf(identity);
    const b = EventCorrelator.keyOf({ ...identity, note: 'other' });
    const c = EventCorrelator.keyOf({ ...identity, regarding: 'uid-2' });
    correlator.observe(a, 0);
    correlator.created(a, { namespace: 'ns', name: 'x' });
    expect(correlator.observe(b, 1).action).toBe('create');
    expect(correlator.observe(c, 1).action).toBe('create');
  });

  it('does not update an Event that was never written', () => {
    const correlator = new EventCorrelator();
    const key = EventCorrelator.keyOf(identity);
    correlator.observe(key, 0);
    expect(correlator.observe(key, 1)).toEqual({ action: 'create' });
  });

  it('forgets the least recently seen keys beyond its capacity', () => {
    const correlator = new EventCorrelator({ maxEntries: 2 });
    for (const note of ['1', '2', '3']) {
      const key = EventCorrelator.keyOf({ ...identity, note });
      correlator.observe(key, 0);
      correlator.created(key, { namespace: 'ns', name: note });
    }
    expect(correlator.size).toBe(2);
    expect(correlator.observe(EventCorrelator.keyOf({ ...identity, note: '1' }), 1).action).toBe('create');
    expect(correlator.observe(EventCorrelator.keyOf({ ...identity, note: '3' }), 1).action).toBe('update');
  });

  it('lets keys past the window go at the next new event, not only at the bound', () => {
    const correlator = new EventCorrelator({ windowMs: 1000 });
    for (const note of ['1', '2', '3']) correlator.observe(EventCorrelator.keyOf({ ...identity, note }), 0);
    correlator.observe(EventCorrelator.keyOf({ ...identity, note: '2' }), 500);
    correlator.observe(EventCorrelator.keyOf({ ...identity, note: '4' }), 1200);
    expect(correlator.size).toBe(2);
  });
});
