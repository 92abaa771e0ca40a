import type { RemediationPhase } from '../api/index.ts';
import type { NodeRemoval } from './out-of-service.ts';

/** What one reconcile of a Reboot remediation sees. */
export interface RemediationFacts {
  phase: RemediationPhase | undefined;
  /** The Metal3Remediation is being deleted (Cluster API found the Machine healthy again). */
  deleting: boolean;
  hasFinalizer: boolean;
  strategyType: string | undefined;
  host: {
    online: boolean;
    /** Our `reboot.metal3.io/metal3-remediation-<uid>` annotation is on the host. */
    powerOffRequested: boolean;
    poweredOn: boolean;
  };
  /** The Machine's Node in the workload cluster; `unknown` when we may not read Nodes there. */
  node: 'present' | 'deleting' | 'absent' | 'unknown';
  /** CAPM3's mode for the management cluster's Kubernetes version. */
  nodeRemoval: NodeRemoval;
  /** The Node carries the out-of-service taint. */
  nodeTainted: boolean;
  /** No pod on the Node is terminating and no volume is attached to it (read only when it matters). */
  nodeDrained: boolean;
  /** The remediation's backup annotations hold the Node's current labels and annotations. */
  nodeBackedUp: boolean;
  /** Backup annotations exist to restore from. */
  hasBackup: boolean;
  /** Left of the current power cycle's timeout; undefined before the first one started. */
  timeoutLeftMs: number | undefined;
  retryLimitReached: boolean;
}

export type RemediationStep =
  | { action: 'fail'; why: string }
  | { action: 'ignore'; why: string }
  | { action: 'start' }
  | { action: 'add-finalizer' }
  | { action: 'request-power-off' }
  | { action: 'back-up-node' }
  | { action: 'delete-node' }
  | { action: 'taint-node' }
  | { action: 'untaint-node' }
  | { action: 'enter-waiting' }
  | { action: 'power-on' }
  | { action: 'restore-node' }
  | { action: 'release' }
  | { action: 'retry' }
  | { action: 'give-up' }
  | { action: 'wait'; for: 'power-off' | 'power-on' | 'node-deletion' | 'node-drain' | 'healthy-node'; maxMs?: number };

/**
 * CAPM3's Reboot strategy, one step at a time. Running: power the host off through the reboot
 * annotation, and only once it is off take the Node out of service, so its workload may safely
 * run elsewhere: taint it out-of-service and wait until its pods and volumes are gone, or (before
 * Kubernetes 1.28) back it up and delete it. Waiting: power back on, lift the taint (or restore
 * the re-registered Node's labels and annotations), and wait for Cluster API to see it healthy
 * (it then deletes the remediation). After the timeout another power cycle, until the retry
 * limit; then the Machine is given up.
 */
export function nextRemediationStep(facts: RemediationFacts): RemediationStep {
  if (facts.deleting) return deletionStep(facts);
  if (facts.phase === 'Deleting machine' || facts.phase === 'Failed') {
    return facts.hasFinalizer ? { action: 'release' } : { action: 'ignore', why: `remediation is over (${facts.phase})` };
  }
  if (!facts.host.online) return { action: 'fail', why: 'the host is powered off on purpose (spec.online is false)' };
  if (facts.strategyType !== 'Reboot') return { action: 'ignore', why: `unsupported remediation strategy "${facts.strategyType ?? ''}"` };
  if (facts.phase === undefined) return { action: 'start' };
  return facts.phase === 'Running' ? runningStep(facts) : waitingStep(facts);
}

function runningStep(facts: RemediationFacts): RemediationStep {
  if (!facts.hasFinalizer) return { action: 'add-finalizer' };
  if (!facts.host.powerOffRequested) return { action: 'request-power-off' };
  if (facts.host.poweredOn) return { action: 'wait', for: 'power-off' };
  if (facts.node === 'present' && facts.nodeRemoval === 'out-of-service-taint') {
    if (!facts.nodeTainted) return { action: 'taint-node' };
    if (!facts.nodeDrained) return { action: 'wait', for: 'node-drain' };
    return { action: 'enter-waiting' };
  }
  if (facts.node === 'present') return facts.nodeBackedUp ? { action: 'delete-node' } : { action: 'back-up-node' };
  if (facts.node === 'deleting') return { action: 'wait', for: 'node-deletion' };
  return { action: 'enter-waiting' };
}

function waitingStep(facts: RemediationFacts): RemediationStep {
  if (facts.host.powerOffRequested) return { action: 'power-on' };
  if (!facts.host.poweredOn) return { action: 'wait', for: 'power-on' };
  if (facts.hasFinalizer && facts.node === 'present') {
    return facts.nodeRemoval === 'out-of-service-taint' ? { action: 'untaint-node' } : { action: 'restore-node' };
  }
  if (facts.hasFinalizer && facts.node === 'unknown') return { action: 'release' };
  if (facts.timeoutLeftMs === undefined || facts.timeoutLeftMs > 0) {
    return { action: 'wait', for: 'healthy-node', ...(facts.timeoutLeftMs !== undefined ? { maxMs: facts.timeoutLeftMs } : {}) };
  }
  return facts.retryLimitReached ? { action: 'give-up' } : { action: 'retry' };
}

/** Deleted by Cluster API: put back what is still ours to put back, then let go. */
function deletionStep(facts: RemediationFacts): RemediationStep {
  if (!facts.hasFinalizer) return { action: 'ignore', why: 'being deleted' };
  if (facts.host.powerOffRequested) return { action: 'power-on' };
  if (facts.node === 'present' && facts.nodeTainted) return { action: 'untaint-node' };
  if (facts.node === 'present' && facts.hasBackup) return { action: 'restore-node' };
  return { action: 'release' };
}
