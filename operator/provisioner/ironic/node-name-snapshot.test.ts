import { describe, expect, it } from '@jest/globals';
import { FakeClock } from '../../runtime/testing/fake-clock.ts';
import { NodeNameSnapshot } from './node-name-snapshot.ts';

describe('NodeNameSnapshot', () => {
  const names = ['metal3~worker-0', 'worker-0'];
  const snapshot = () => {
    const clock = new FakeClock();
    return { clock, snapshot: new NodeNameSnapshot({ clock, maxAgeMs: 6_000 }) };
  };

  it('rules nothing out before a list', () => {
    expect(snapshot().snapshot.rulesOut(names)).toBe(false);
  });

  it('rules out names a recent list did not show, and not one it did', () => {
    const { clock, snapshot: nodeNames } = snapshot();
    nodeNames.record(['metal3~worker-1'], clock.now());
    expect(nodeNames.rulesOut(names)).toBe(true);
    nodeNames.record(['metal3~worker-1', 'worker-0'], clock.now());
    expect(nodeNames.rulesOut(names)).toBe(false);
  });

  it('rules nothing out once the list is older than its limit', async () => {
    const { clock, snapshot: nodeNames } = snapshot();
    nodeNames.record([], clock.now());
    await clock.advance(6_001);
    expect(nodeNames.rulesOut(names)).toBe(false);
  });

  it('does not rule out a name this process asked to create until a list begun after that answer', async () => {
    const { clock, snapshot: nodeNames } = snapshot();
    const listStartedAtMs = clock.now();
    await clock.advance(100);
    // The create request ended while the list was on its way: the list may have missed the node.
    nodeNames.createAsked('metal3~worker-0');
    nodeNames.record([], listStartedAtMs);
    expect(nodeNames.rulesOut(names)).toBe(false);
    expect(nodeNames.rulesOut(['metal3~worker-1'])).toBe(true);

    await clock.advance(100);
    nodeNames.record(['metal3~worker-0'], clock.now());
    expect(nodeNames.rulesOut(names)).toBe(false);
    nodeNames.record([], clock.now());
    expect(nodeNames.rulesOut(names)).toBe(true);
  });
});
