import { describe, expect, it } from '@jest/globals';
import { PROVISIONING_STATES } from '../../api/provisioning-state.ts';
import { STATE_HANDLERS } from './states/index.ts';
import { TRANSITIONS, isAllowedTransition, stateDiagram } from './transitions.ts';

describe('the transition table', () => {
  it('has a handler for every state', () => {
    expect(Object.keys(STATE_HANDLERS).sort()).toEqual([...PROVISIONING_STATES].sort());
  });

  it('only names known states and fits on one screen', () => {
    for (const t of TRANSITIONS) {
      expect(PROVISIONING_STATES).toContain(t.to);
      for (const from of t.from) expect(PROVISIONING_STATES).toContain(from);
    }
    expect(TRANSITIONS.length).toBeLessThan(40);
  });

  it('reaches every state from a new host', () => {
    const reached = new Set<string>(['']);
    for (let changed = true; changed; ) {
      changed = false;
      for (const t of TRANSITIONS) {
        if (t.from.some((from) => reached.has(from)) && !reached.has(t.to)) {
          reached.add(t.to);
          changed = true;
        }
      }
    }
    // `match profile` and `ready` only exist in objects written by old releases.
    expect(PROVISIONING_STATES.filter((state) => !reached.has(state))).toEqual(['match profile', 'ready']);
  });

  it('allows deletion-only moves only while deleting', () => {
    expect(isAllowedTransition('available', 'powering off before delete', { deleting: true })).toBe(true);
    expect(isAllowedTransition('available', 'powering off before delete', { deleting: false })).toBe(false);
    expect(isAllowedTransition('provisioning', 'deprovisioning', { deleting: false })).toBe(true);
    expect(isAllowedTransition('available', 'provisioned', { deleting: false })).toBe(false);
  });

  it('renders a Mermaid diagram', () => {
    const diagram = stateDiagram();
    expect(diagram.split('\n')[0]).toBe('stateDiagram-v2');
    expect(diagram).toContain('available --> provisioning: online with a new image');
    expect(diagram).toContain('deprovisioning --> powering_off_before_delete: [deleting]');
  });
});
