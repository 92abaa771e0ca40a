import type { Condition, Result } from '../../../operator/runtime/index.ts';
import { addFinalizer, formatTime, isNotFound, objectName, patchStatus, removeFinalizer } from '../../../operator/runtime/index.ts';
import {
  METAL3_REMEDIATION_FINALIZER, NODE_ANNOTATIONS_BACKUP_ANNOTATION, NODE_LABELS_BACKUP_ANNOTATION, UNHEALTHY_ANNOTATION,
  UNHEALTHY_ANNOTATION_VALUE, machineSchema,
} from '../../api/index.ts';
import type { Metal3Remediation, Metal3RemediationStatus } from '../../api/index.ts';
import {
  hasOutOfServiceTaint, nodeBackupAnnotations, nodeRestorePatch, ownerRemediatedFalse, withOutOfServiceTaint, withoutOutOfServiceTaint,
} from '../../remediation/index.ts';
import type { RemediationStep, Taint } from '../../remediation/index.ts';
import { powerOffAnnotation } from './remediation-context.ts';
import type { RemediationDeps, RemediationScope } from './remediation-context.ts';

/** An event on the remediation, about its host. */
type RecordEvent = (type: 'Normal' | 'Warning', reason: string, note: string) => void;

/** How long after tainting a Node its pods are first looked at. */
const TAINT_SETTLE_MS = 1_000;

/** BMO's reboot annotation value: a hard power off, held until the annotation is removed. */
const HARD_POWER_OFF = JSON.stringify({ mode: 'hard' });

/**
 * Carries out one step. Writes to the remediation itself wake the controller again through
 * its watch; writes elsewhere (host, Node) come back after a poll.
 */
export async function runStep(step: RemediationStep, scope: RemediationScope, deps: RemediationDeps): Promise<Result> {
  const { remediation, host, signal } = scope;
  const poll = { requeueAfter: deps.pollMs };
  const event: RecordEvent = (type, reason, note) =>
    deps.events.event(remediation, { type, reason, action: 'Remediate', note, related: host });
  switch (step.action) {
    case 'ignore':
      scope.log.debug('nothing to do', { why: step.why });
      return {};
    case 'wait':
      return { requeueAfter: Math.max(100, Math.min(deps.pollMs, step.maxMs ?? deps.pollMs)) };
    case 'fail':
      await writeStatus(remediation, deps, { phase: 'Failed' }, signal);
      event('Warning', 'RemediationFailed', `cannot remediate: ${step.why}`);
      scope.log.info('remediation failed', { why: step.why });
      return {};
    case 'start':
      await writeStatus(remediation, deps, { phase: 'Running', lastRemediated: now(deps), retryCount: remediation.status?.retryCount ?? 0 }, signal);
      event('Normal', 'RemediationStarted', `power cycling ${host.metadata.name} for Machine ${scope.machine.metadata.name}`);
      return {};
    case 'add-finalizer':
      await addFinalizer(deps.remediations.client, remediation, METAL3_REMEDIATION_FINALIZER, { signal });
      return {};
    case 'request-power-off':
      await patchHostAnnotations(scope, deps, { [powerOffAnnotation(remediation)]: HARD_POWER_OFF });
      event('Normal', 'PowerOffRequested', `powering off ${host.metadata.name}`);
      return poll;
    case 'back-up-node':
      await deps.remediations.client.patch(objectName(remediation),
        { metadata: { annotations: nodeBackupAnnotations(scope.node!.metadata) } }, { type: 'merge', signal });
      return {};
    case 'delete-node':
      await deleteNode(scope);
      event('Normal', 'NodeDeleted', `deleted Node ${scope.node!.metadata.name} of the powered-off host`);
      return poll;
    case 'taint-node':
      await patchNodeTaints(scope, withOutOfServiceTaint(scope.node!.spec?.taints, now(deps)));
      event('Normal', 'NodeOutOfService', `tainted Node ${scope.node!.metadata.name} of the powered-off host out-of-service; its pods are deleted and volumes detached`);
      // CAPM3 looks again after a second: sooner, no pod may be terminating yet, which would read as drained.
      return { requeueAfter: TAINT_SETTLE_MS };
    case 'untaint-node':
      await untaintNode(scope, deps, event);
      return poll;
    case 'enter-waiting':
      await writeStatus(remediation, deps, { phase: 'Waiting' }, signal);
      return {};
    case 'power-on':
      await patchHostAnnotations(scope, deps, { [powerOffAnnotation(remediation)]: null });
      event('Normal', 'PowerOnRequested', `powering ${host.metadata.name} back on`);
      return poll;
    case 'restore-node':
      await restoreNode(scope, deps, event);
      return poll;
    case 'release':
      await removeFinalizer(deps.remediations.client, remediation, METAL3_REMEDIATION_FINALIZER, { signal });
      return {};
    case 'retry': {
      const retryCount = (remediation.status?.retryCount ?? 0) + 1;
      await writeStatus(remediation, deps, { phase: 'Running', lastRemediated: now(deps), retryCount }, signal);
      event('Normal', 'RemediationRetried', `the Node is still unhealthy; power cycle ${retryCount + 1} of ${host.metadata.name}`);
      return {};
    }
    case 'give-up':
      await giveUp(scope, deps);
      event('Warning', 'RemediationGaveUp',
        `the Node is still unhealthy after ${(remediation.status?.retryCount ?? 0) + 1} power cycles; Machine ${scope.machine.metadata.name} is handed back for deletion and ${host.metadata.name} marked unhealthy`);
      return {};
  }
}

function now(deps: RemediationDeps): string {
  return formatTime(new Date(deps.clock.now()));
}

async function writeStatus(remediation: Metal3Remediation, deps: RemediationDeps, status: Metal3RemediationStatus, signal: AbortSignal): Promise<void> {
  await patchStatus(deps.remediations.client, remediation, status, { signal });
}

async function patchHostAnnotations(scope: RemediationScope, deps: RemediationDeps, annotations: Record<string, string | null>): Promise<void> {
  await deps.hosts.patch(objectName(scope.host), { metadata: { annotations } }, { type: 'merge', signal: scope.signal });
}

async function deleteNode(scope: RemediationScope): Promise<void> {
  try {
    await scope.nodes!.delete({ name: scope.node!.metadata.name ?? '' }, { signal: scope.signal });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** The Node's whole taint list, written only over the version read (a merge patch replaces lists). */
async function patchNodeTaints(scope: RemediationScope, taints: Taint[]): Promise<void> {
  const node = scope.node!;
  await scope.nodes!.patch({ name: node.metadata.name ?? '' }, { metadata: { resourceVersion: node.metadata.resourceVersion }, spec: { taints } },
    { type: 'merge', signal: scope.signal });
}

/** The host is back on: the Node may run pods again, and this power cycle no longer needs the finalizer. */
async function untaintNode(
  scope: RemediationScope,
  deps: RemediationDeps,
  event: RecordEvent,
): Promise<void> {
  const node = scope.node!;
  if (hasOutOfServiceTaint(node.spec?.taints)) {
    await patchNodeTaints(scope, withoutOutOfServiceTaint(node.spec?.taints));
    event('Normal', 'NodeInService', `lifted the out-of-service taint of Node ${node.metadata.name}`);
    scope.log.info('out-of-service taint lifted', { node: node.metadata.name });
  }
  await removeFinalizer(deps.remediations.client, scope.remediation, METAL3_REMEDIATION_FINALIZER, { signal: scope.signal });
}

/**
 * The Node registered again after the power cycle: put back the labels and annotations it
 * had, and the providerID CAPM3 set on it (a kubelet without --provider-id registers none,
 * and Cluster API finds a Machine's Node by it). Then the backup and finalizer go.
 */
async function restoreNode(
  scope: RemediationScope,
  deps: RemediationDeps,
  event: RecordEvent,
): Promise<void> {
  const node = scope.node!;
  const { patch, unreadable } = nodeRestorePatch(scope.remediation.metadata.annotations, node.metadata);
  const providerID = scope.machine.spec.providerID;
  const spec = providerID && !node.spec?.providerID ? { providerID } : undefined;
  if (patch || spec) {
    await scope.nodes!.patch({ name: node.metadata.name ?? '' }, { ...(patch ? { metadata: patch } : {}), ...(spec ? { spec } : {}) },
      { type: 'merge', signal: scope.signal });
  }
  if (unreadable.length) {
    event('Warning', 'NodeBackupUnreadable', `${unreadable.join(', ')} on this remediation is not a JSON object of strings; not restored`);
  }
  const restored = await deps.remediations.client.patch(objectName(scope.remediation), { metadata: { annotations: {
    [NODE_ANNOTATIONS_BACKUP_ANNOTATION]: null, [NODE_LABELS_BACKUP_ANNOTATION]: null,
  } } }, { type: 'merge', signal: scope.signal });
  await removeFinalizer(deps.remediations.client, restored, METAL3_REMEDIATION_FINALIZER, { signal: scope.signal });
  event('Normal', 'NodeRestored', `Node ${node.metadata.name} is back; its labels and annotations are restored`);
  scope.log.info('Node restored', { node: node.metadata.name, labels: Object.keys(patch?.labels ?? {}).length,
    annotations: Object.keys(patch?.annotations ?? {}).length, providerID: spec !== undefined });
}

/**
 * The retry limit is reached: OwnerRemediated False hands the Machine back to its owner
 * (its MachineSet deletes it), and the host is marked so no Machine chooses it again.
 */
async function giveUp(scope: RemediationScope, deps: RemediationDeps): Promise<void> {
  const { remediation, signal } = scope;
  const machine = machineSchema.parse(await deps.machines.client.get(objectName(scope.machine), { signal }));
  const message = `Metal3Remediation ${remediation.metadata.name}: the Node stayed unhealthy through ${(remediation.status?.retryCount ?? 0) + 1} power cycles of ${scope.host.metadata.name}`;
  // The schema keeps every field of each condition; these are the API server's shapes of them.
  const next = ownerRemediatedFalse({
    conditions: machine.status?.conditions as Condition[] | undefined,
    v1beta1: machine.status?.deprecated?.v1beta1?.conditions,
  }, { message, now: new Date(deps.clock.now()) });
  await patchStatus(deps.machines.client, machine, { conditions: next.conditions, deprecated: { v1beta1: { conditions: next.v1beta1 } } },
    { optimisticLock: true, signal });
  await patchHostAnnotations(scope, deps, { [UNHEALTHY_ANNOTATION]: UNHEALTHY_ANNOTATION_VALUE });
  const updated = await patchStatus(deps.remediations.client, remediation, { phase: 'Deleting machine' }, { signal });
  await removeFinalizer(deps.remediations.client, updated, METAL3_REMEDIATION_FINALIZER, { signal });
  scope.log.info('remediation gave up; Machine handed back for deletion', { retryCount: remediation.status?.retryCount ?? 0 });
}
