import { describe, expect, it } from '@jest/globals';
import { nextRemediationStep } from './reboot-step.ts';
import type { RemediationFacts } from './reboot-step.ts';

const base: RemediationFacts = {
  phase: 'Running', deleting: false, hasFinalizer: true, strategyType: 'Reboot',
  host: { online: true, powerOffRequested: true, poweredOn: false },
  node: 'absent', nodeRemoval: 'delete', nodeTainted: false, nodeDrained: false,
  nodeBackedUp: false, hasBackup: false, timeoutLeftMs: 5_000, retryLimitReached: false,
};
const facts = (changes: Partial<Omit<RemediationFacts, 'host'>> & { host?: Partial<RemediationFacts['host']> } = {}): RemediationFacts =>
  ({ ...base, ...changes, host: { ...base.host, ...changes.host } });
const action = (changes: Parameters<typeof facts>[0]) => nextRemediationStep(facts(changes)).action;

describe('nextRemediationStep', () => {
  it('starts a Reboot remediation, and fails or ignores what it cannot remediate', () => {
    expect(action({ phase: undefined, hasFinalizer: false })).toBe('start');
    expect(nextRemediationStep(facts({ phase: undefined, host: { online: false } })))
      .toEqual({ action: 'fail', why: 'the host is powered off on purpose (spec.online is false)' });
    expect(nextRemediationStep(facts({ phase: undefined, strategyType: undefined })))
      .toEqual({ action: 'ignore', why: 'unsupported remediation strategy ""' });
  });

  it('Running: finalizer, power-off request, wait for off, back up and delete the Node, then wait for it to come back', () => {
    expect(action({ hasFinalizer: false, host: { powerOffRequested: false, poweredOn: true } })).toBe('add-finalizer');
    expect(action({ host: { powerOffRequested: false, poweredOn: true } })).toBe('request-power-off');
    expect(nextRemediationStep(facts({ node: 'present', host: { poweredOn: true } }))).toEqual({ action: 'wait', for: 'power-off' });
    expect(action({ node: 'present' })).toBe('back-up-node');
    expect(action({ node: 'present', nodeBackedUp: true })).toBe('delete-node');
    expect(action({ node: 'deleting', nodeBackedUp: true })).toBe('wait');
    expect(action({ node: 'absent' })).toBe('enter-waiting');
    // Nodes we may not read are left alone.
    expect(action({ node: 'unknown' })).toBe('enter-waiting');
  });

  it('out-of-service taint mode: once the host is off, taints the Node and waits for it to drain; back on, lifts the taint', () => {
    const taintMode = { nodeRemoval: 'out-of-service-taint' as const, node: 'present' as const };
    // The Node is never backed up or deleted in this mode.
    expect(nextRemediationStep(facts({ ...taintMode, host: { poweredOn: true } }))).toEqual({ action: 'wait', for: 'power-off' });
    expect(action(taintMode)).toBe('taint-node');
    expect(nextRemediationStep(facts({ ...taintMode, nodeTainted: true }))).toEqual({ action: 'wait', for: 'node-drain' });
    expect(action({ ...taintMode, nodeTainted: true, nodeDrained: true })).toBe('enter-waiting');
    expect(action({ ...taintMode, node: 'absent' })).toBe('enter-waiting');

    const on = { ...taintMode, phase: 'Waiting' as const, nodeTainted: true, host: { powerOffRequested: false, poweredOn: true } };
    expect(action({ ...on, host: { powerOffRequested: true, poweredOn: false } })).toBe('power-on');
    expect(action({ ...on, host: { powerOffRequested: false, poweredOn: false } })).toBe('wait');
    expect(action(on)).toBe('untaint-node');
    // The finalizer goes with the taint; then the timeout is waited out as in the other mode.
    expect(nextRemediationStep(facts({ ...on, nodeTainted: false, hasFinalizer: false })))
      .toEqual({ action: 'wait', for: 'healthy-node', maxMs: 5_000 });
    // Deleted by Cluster API mid-cycle: the taint is lifted before letting go.
    expect(action({ ...on, deleting: true })).toBe('untaint-node');
  });

  it('Waiting: power on, restore the re-registered Node, then wait out the timeout', () => {
    const waiting = { phase: 'Waiting' as const };
    expect(action({ ...waiting, host: { powerOffRequested: true } })).toBe('power-on');
    expect(nextRemediationStep(facts({ ...waiting, host: { powerOffRequested: false, poweredOn: false } })))
      .toEqual({ action: 'wait', for: 'power-on' });
    const on = { ...waiting, host: { powerOffRequested: false, poweredOn: true } };
    expect(action({ ...on, node: 'absent' })).toBe('wait');
    expect(action({ ...on, node: 'present' })).toBe('restore-node');
    expect(action({ ...on, node: 'unknown' })).toBe('release');
    // Restored (finalizer gone) but still unhealthy: Cluster API has not deleted us; wait for the timeout.
    expect(nextRemediationStep(facts({ ...on, node: 'present', hasFinalizer: false })))
      .toEqual({ action: 'wait', for: 'healthy-node', maxMs: 5_000 });
  });

  it('after the timeout: another power cycle until the retry limit, then the Machine is given up', () => {
    const expired = { phase: 'Waiting' as const, host: { powerOffRequested: false, poweredOn: true }, timeoutLeftMs: 0 };
    expect(action({ ...expired, hasFinalizer: false, node: 'present' })).toBe('retry');
    expect(action({ ...expired, node: 'absent' })).toBe('retry');
    expect(action({ ...expired, node: 'absent', retryLimitReached: true })).toBe('give-up');
  });

  it('once over, only the finalizer is let go', () => {
    expect(action({ phase: 'Deleting machine' })).toBe('release');
    expect(action({ phase: 'Failed', hasFinalizer: false })).toBe('ignore');
  });

  it('deleted by Cluster API: powers the host back on, restores a backed-up Node, then lets go', () => {
    expect(action({ deleting: true, host: { powerOffRequested: true } })).toBe('power-on');
    expect(action({ deleting: true, host: { powerOffRequested: false }, node: 'present', hasBackup: true })).toBe('restore-node');
    expect(action({ deleting: true, host: { powerOffRequested: false }, node: 'present' })).toBe('release');
    expect(action({ deleting: true, hasFinalizer: false })).toBe('ignore');
  });
});
