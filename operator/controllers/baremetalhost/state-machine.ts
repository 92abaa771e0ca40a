import type { ProvisioningState } from '../../api/provisioning-state.ts';
import type { Action } from './action.ts';
import { complete } from './action.ts';
import { CAPACITY_LIMITED_STATES, checkDelayedHost, ensureCapacity } from './capacity.ts';
import { deletionDeadlineExceeded, tooManyFailures } from './deletion-budget.ts';
import { deletionRoute } from './deletion-routing.ts';
import { checkDetachedHost } from './detach.ts';
import type { HostEvent } from './events.ts';
import { CLEANUP_SKIPPED_REASON, ERROR_EVENT_REASONS, normal, warning } from './events.ts';
import { recordError } from './host-status.ts';
import type { Host } from './host.ts';
import { bootModeOf, isDeleting, stateOf } from './host.ts';
import { recordOperationEnd, recordOperationStart } from './operation-history.ts';
import { ensureRegistered } from './registration.ts';
import type { StateContext } from './state-context.ts';
import { note, publish } from './state-context.ts';
import { STATE_HANDLERS } from './states/index.ts';
import { isAllowedTransition } from './transitions.ts';

/** Deletion steps that may be abandoned, and where the host goes instead. */
const GIVE_UP_TARGET: Partial<Record<ProvisioningState, ProvisioningState>> = {
  deprovisioning: 'powering off before delete',
  'powering off before delete': 'deleting',
};

const ENTRY_EVENTS: Partial<Record<ProvisioningState, (host: Host) => HostEvent>> = {
  inspecting: () => normal('InspectionStarted', 'Hardware inspection started'),
  provisioning: (host) => normal('ProvisioningStarted', `Image provisioning started for ${host.spec.image?.url ?? ''}`),
  deprovisioning: () => normal('DeprovisioningStarted', 'Image deprovisioning started'),
};

function giveUp(host: Host, context: StateContext, state: ProvisioningState, why: string): Action {
  const next = GIVE_UP_TARGET[state] as ProvisioningState;
  if (state === 'deprovisioning') {
    note(context, { metric: 'deleteWithoutDeprovisioning' });
    publish(context, warning(CLEANUP_SKIPPED_REASON, `giving up on host clean up (${why}); the host may still be operational and cause issues in your clusters - clean it up manually`));
  } else {
    note(context, { metric: 'deleteWithoutPoweringOff' });
    publish(context, warning(CLEANUP_SKIPPED_REASON, `giving up on powering off the host before deletion (${why})`));
  }
  context.log.info('giving up on a deletion step', { state, next, why });
  return complete(next);
}

function recordFailure(host: Host, context: StateContext, action: Extract<Action, { kind: 'failed' }>): void {
  recordError(host.status, action.errorType, action.message);
  publish(context, warning(ERROR_EVENT_REASONS[action.errorType], action.message));
  note(context, { metric: 'hostError', errorType: action.errorType });
}

function recorded(host: Host, context: StateContext, action: Action): Action {
  if (action.kind === 'failed') recordFailure(host, context, action);
  return action;
}

/** A deletion step the host may give up on. */
function abandonable(host: Host, state: ProvisioningState): boolean {
  return isDeleting(host) && GIVE_UP_TARGET[state] !== undefined;
}

/**
 * Our deadline since deletionTimestamp, checked before registration as well as the handler: a
 * host whose node Ironic lost and whose BMC now fails verification never reaches its handler.
 */
function pastDeletionDeadline(host: Host, context: StateContext): Action | undefined {
  const state = stateOf(host);
  if (!abandonable(host, state)) return undefined;
  const late = deletionDeadlineExceeded(host, context);
  return late ? giveUp(host, context, state, late) : undefined;
}

/** The state's handler, with BMO's "give up after more than 3 failures while deleting" around it. */
async function runHandler(host: Host, context: StateContext, state: ProvisioningState): Promise<Action> {
  const action = await STATE_HANDLERS[state](host, context);
  if (action.kind !== 'failed') return action;
  recordFailure(host, context, action);
  const exhausted = abandonable(host, state) ? tooManyFailures(host) : undefined;
  return exhausted ? giveUp(host, context, state, exhausted) : action;
}

/** BMO's `ReconcileState` order: capacity, deletion routing, detach, registration, then the handler (our deletion deadline before registration). */
async function decide(host: Host, context: StateContext): Promise<Action> {
  const capacityGate = capacityApplies(host, context) ? checkDelayedHost(host, context) : undefined;
  if (capacityGate) return capacityGate;
  const route = deletionRoute(host);
  if (route === 'hold') {
    note(context, { metric: 'deleteDelayedForDetached' });
    context.log.info('delaying detached host deletion');
  } else if (route !== undefined) {
    context.log.info('initiating host deletion', { next: route });
    return complete(route);
  }
  const detached = await checkDetachedHost(host, context);
  if (detached) return recorded(host, context, detached);
  const late = pastDeletionDeadline(host, context);
  if (late) return late;
  const registration = await ensureRegistered(host, context);
  if (registration) {
    note(context, { metric: 'registrationRequired' });
    return recorded(host, context, registration);
  }
  // The handler path records its own failures, as it must see the new errorCount.
  return runHandler(host, context, stateOf(host));
}

/** Past the deletion deadline the provisioning limit no longer holds a deletion back. */
function capacityApplies(host: Host, context: StateContext): boolean {
  return !(isDeleting(host) && deletionDeadlineExceeded(host, context));
}

async function enter(host: Host, context: StateContext, from: ProvisioningState, action: Action): Promise<Action> {
  if (action.kind !== 'complete' || action.next === from) return action;
  const next = action.next;
  if (!isAllowedTransition(from, next, { deleting: isDeleting(host) })) {
    throw new Error(`state machine bug: no transition from "${from}" to "${next}" in TRANSITIONS`);
  }
  if (CAPACITY_LIMITED_STATES.includes(next) && capacityApplies(host, context)) {
    const gate = ensureCapacity(host, context, next);
    if (gate) return gate;
  }
  context.log.info('changing provisioning state', { old: from, new: next });
  const status = host.status;
  const now = context.now();
  const ended = recordOperationEnd(status, from, now);
  if (ended) note(context, ended);
  recordOperationStart(status, next, now);
  note(context, { metric: 'stateChange', from, to: next });
  status.provisioning.state = next;
  if (next === 'registering' || next === 'inspecting' || next === 'provisioning') status.provisioning.bootMode = bootModeOf(host);
  const entryEvent = ENTRY_EVENTS[next];
  if (entryEvent) publish(context, entryEvent(host));
  return action;
}

/**
 * One pass of the state machine over the host draft. Failures are recorded here (status,
 * event, metric) so every handler fails the same way; transitions are checked against
 * TRANSITIONS and timed in operationHistory.
 */
export async function reconcileState(host: Host, context: StateContext): Promise<Action> {
  const initial = stateOf(host);
  const action = await decide(host, context);
  return enter(host, context, initial, action);
}
