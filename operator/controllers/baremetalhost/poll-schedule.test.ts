import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { PollSchedule, StateDurations, inPolledState, nextPollMs, waitsOutError } from './poll-schedule.ts';

const bounds = { shortMs: 3_000, longMs: 10_000 };

describe('StateDurations', () => {
  it('starts from the first duration and then moves a quarter of the way towards each new one', () => {
    const durations = new StateDurations();
    expect(durations.expectedMs('inspecting')).toBeUndefined();
    durations.observe('inspecting', 60_000);
    expect(durations.expectedMs('inspecting')).toBe(60_000);
    durations.observe('inspecting', 100_000);
    expect(durations.expectedMs('inspecting')).toBe(70_000);
    durations.observe('inspecting', -1);
    durations.observe('inspecting', Number.NaN);
    expect(durations.expectedMs('inspecting')).toBe(70_000);
    expect(durations.expectedMs('provisioning')).toBeUndefined();
  });
});

describe('nextPollMs', () => {
  it('waits until the state is expected to end, within IRONIC_POLL_SHORT and IRONIC_POLL_LONG', () => {
    expect(nextPollMs({ expectedMs: 60_000, elapsedMs: 0, bounds })).toBe(10_000);
    expect(nextPollMs({ expectedMs: 60_000, elapsedMs: 54_000, bounds })).toBe(6_000);
    expect(nextPollMs({ expectedMs: 60_000, elapsedMs: 58_000, bounds })).toBe(3_000);
    expect(nextPollMs({ expectedMs: 2_000, elapsedMs: 0, bounds })).toBe(3_000);
  });

  it('looks at a quarter of the expected time once a host is late, and leaves the hint alone without an estimate', () => {
    expect(nextPollMs({ expectedMs: 30_000, elapsedMs: 90_000, bounds })).toBe(7_500);
    expect(nextPollMs({ expectedMs: 200_000, elapsedMs: 300_000, bounds })).toBe(10_000);
    expect(nextPollMs({ expectedMs: undefined, elapsedMs: 0, bounds })).toBeUndefined();
  });
});

describe('PollSchedule', () => {
  it('measures stays it saw begin, and schedules from the elapsed part of the current one', () => {
    const schedule = new PollSchedule(bounds);
    schedule.entered('ns/a', { from: 'registering', to: 'inspecting', atMs: 0 });
    expect(schedule.pollAfterMs('ns/a', { state: 'inspecting', nowMs: 1_000 })).toBeUndefined();
    schedule.entered('ns/a', { from: 'inspecting', to: 'preparing', atMs: 40_000 });
    expect(schedule.durations.expectedMs('inspecting')).toBe(40_000);
    schedule.entered('ns/b', { from: 'registering', to: 'inspecting', atMs: 50_000 });
    expect(schedule.pollAfterMs('ns/b', { state: 'inspecting', nowMs: 50_000 })).toBe(10_000);
    expect(schedule.pollAfterMs('ns/b', { state: 'inspecting', nowMs: 85_000 })).toBe(5_000);
    expect(schedule.pollAfterMs('ns/b', { state: 'inspecting', nowMs: 89_000 })).toBe(3_000);
  });

  it('does not count a stay under way when first seen (an operator restart), and never schedules steady states', () => {
    const schedule = new PollSchedule(bounds);
    expect(schedule.pollAfterMs('ns/a', { state: 'provisioning', nowMs: 5_000 })).toBeUndefined();
    schedule.entered('ns/a', { from: 'provisioning', to: 'provisioned', atMs: 6_000 });
    expect(schedule.durations.expectedMs('provisioning')).toBeUndefined();
    expect(schedule.pollAfterMs('ns/a', { state: 'provisioned', nowMs: 7_000 })).toBeUndefined();
    schedule.forget('ns/a');
    expect(() => new PollSchedule({ shortMs: 5_000, longMs: 1_000 })).toThrow(RangeError);
  });
});

describe('which hosts the node sweep leaves alone', () => {
  const host = (state: string, operationalStatus: string) =>
    ({ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: 'h', namespace: 'n' },
      status: { operationalStatus, provisioning: { state } } }) as KubeObject;

  it('a host in error waits out its backoff at rest as in a polled state (a failed soft power off retries hard only then)', () => {
    expect(waitsOutError(host('externally provisioned', 'error'))).toBe(true);
    expect(waitsOutError(host('provisioning', 'error'))).toBe(true);
    expect(waitsOutError(host('provisioned', 'OK'))).toBe(false);
    expect(waitsOutError(host('provisioning', 'OK'))).toBe(false);
  });

  it('only transient states are polled', () => {
    expect(inPolledState(host('inspecting', 'OK'))).toBe(true);
    expect(inPolledState(host('externally provisioned', 'OK'))).toBe(false);
  });
});
