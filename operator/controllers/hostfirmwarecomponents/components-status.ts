// The HostFirmwareComponents status BMO's updateHostFirmware computes. `updates` is left out: the
// host controller records it when it starts applying them, and this controller never writes it.
import type { FirmwareComponentStatus, HostFirmwareComponents, HostFirmwareComponentsStatus } from '../../api/hostfirmwarecomponents.ts';
import { firmwareUpdatesProblem } from '../../api/hostfirmwarecomponents.ts';
import { FIRMWARE_CONDITION_CHANGE_DETECTED, FIRMWARE_CONDITION_VALID } from '../../api/hostfirmwaresettings.ts';
import type { Condition } from '../../runtime/conditions.ts';
import { formatTime, setCondition } from '../../runtime/conditions.ts';
import { deepEqual } from '../../runtime/deep-equal.ts';

export interface ComputedComponentsStatus {
  status: Omit<HostFirmwareComponentsStatus, 'updates'>;
  changed: boolean;
  /** BMO's `ValidationFailed` event message, when the verdict just became invalid. */
  problem: string | undefined;
}

/** Updates in the spec that were not started yet (status.updates records the last ones started). */
export function updatesChanged(hfc: HostFirmwareComponents): boolean {
  return !deepEqual(hfc.spec.updates, hfc.status?.updates ?? []);
}

export function computeComponentsStatus(hfc: HostFirmwareComponents, components: FirmwareComponentStatus[], now: Date): ComputedComponentsStatus {
  const generation = hfc.metadata.generation ?? 0;
  const changedUpdates = updatesChanged(hfc);
  const problem = changedUpdates ? firmwareUpdatesProblem(hfc.spec.updates) : undefined;
  const previous = (hfc.status?.conditions ?? []) as Condition[];
  let conditions = setCondition(previous, { type: FIRMWARE_CONDITION_CHANGE_DETECTED, status: changedUpdates ? 'True' : 'False', reason: 'OK', observedGeneration: generation }, { now });
  conditions = problem
    ? setCondition(conditions, { type: FIRMWARE_CONDITION_VALID, status: 'False', reason: 'InvalidComponent', message: `Invalid Firmware Components: ${problem}`, observedGeneration: generation }, { now })
    : setCondition(conditions, { type: FIRMWARE_CONDITION_VALID, status: 'True', reason: 'OK', observedGeneration: generation }, { now });
  const changed = conditions !== previous || !deepEqual(hfc.status?.components, components);
  const status = {
    components,
    conditions,
    ...(changed ? { lastUpdated: formatTime(now) } : hfc.status?.lastUpdated ? { lastUpdated: hfc.status.lastUpdated } : {}),
  };
  const wasInvalid = previous.find((c) => c.type === FIRMWARE_CONDITION_VALID)?.status === 'False';
  return { status, changed, problem: problem && (!wasInvalid || conditions !== previous) ? problem : undefined };
}

/** The updates the host controller applies in preparing: valid for this generation and not started yet. */
export function pendingFirmwareUpdates(hfc: HostFirmwareComponents | undefined): Array<{ component: string; url: string }> {
  if (!hfc || !updatesChanged(hfc) || hfc.spec.updates.length === 0) return [];
  const valid = (hfc.status?.conditions as Condition[] | undefined)?.find((c) => c.type === FIRMWARE_CONDITION_VALID);
  if (valid?.status !== 'True' || valid.observedGeneration !== (hfc.metadata.generation ?? 0)) return [];
  return hfc.spec.updates.map((update) => ({ component: update.component, url: update.url }));
}
