import { hostFirmwareComponentsSchema } from '../../api/hostfirmwarecomponents.ts';
import { hostFirmwareSettingsSchema } from '../../api/hostfirmwaresettings.ts';
import { deepEqual } from '../../runtime/deep-equal.ts';
import type { Predicate } from '../../runtime/predicates.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { safeParseCached } from '../../runtime/parse-cached.ts';
import { pendingFirmwareUpdates } from '../hostfirmwarecomponents/index.ts';
import { pendingSettingChanges } from '../hostfirmwaresettings/index.ts';

/**
 * BMO's `updateEventHandler`: a host update matters when the spec (generation), the
 * finalizers, the annotations or the deletion request changed. Status-only writes, our
 * own included, do not wake the host; it polls with requeueAfter instead.
 */
export const hostChanged: Predicate = {
  update: (previous, next) =>
    previous.metadata.generation !== next.metadata.generation ||
    !deepEqual([...(previous.metadata.finalizers ?? [])].sort(), [...(next.metadata.finalizers ?? [])].sort()) ||
    !deepEqual(previous.metadata.annotations ?? {}, next.metadata.annotations ?? {}) ||
    previous.metadata.deletionTimestamp !== next.metadata.deletionTimestamp,
};

/**
 * A claimed Secret's update wakes its hosts only when what they read of it changed (its data,
 * type or deletion request). Claims by other hosts change only its metadata: with every host
 * of a lab sharing one Secret, waking all of them for each claim made N claims cost N²
 * reconciles (BMO wakes every owner), and 1,000 such hosts took most of an hour to register.
 */
export const secretContentChanged: Predicate<KubeObject & { data?: unknown; stringData?: unknown; type?: unknown }> = {
  update: (previous, next) =>
    !deepEqual(previous.data ?? {}, next.data ?? {}) ||
    !deepEqual(previous.stringData ?? {}, next.stringData ?? {}) ||
    previous.type !== next.type ||
    previous.metadata.deletionTimestamp !== next.metadata.deletionTimestamp,
};

/**
 * A host wakes for a firmware object when what it reads of it changes; `seen` says what that is,
 * and `asksNothing` what it gives for an object that asks for nothing. Such an object, created by
 * the firmware controllers for every new host, gives its host nothing to do: waking it cost each
 * host a pass and a node read in registration. Deleting one leaves the host nothing to apply.
 */
function firmwareSeenChanged(seen: (object: KubeObject) => unknown, asksNothing: unknown): Predicate {
  return {
    create: (object) => !deepEqual(seen(object), asksNothing),
    update: (previous, next) => !deepEqual(seen(previous), seen(next)),
    delete: () => false,
  };
}

/**
 * HostFirmwareSettings: the changes its host would apply (Valid and ChangeDetected at the current
 * generation) and whether any are asked for. The first status a new object gets judges an empty
 * spec: waking every host for it cost each a pass (and a node read) in registration.
 */
export const firmwareSettingsSeenChanged = firmwareSeenChanged((object) => {
  const settings = safeParseCached(hostFirmwareSettingsSchema, object).data;
  return [pendingSettingChanges(settings), Object.keys(settings?.spec.settings ?? {}).length > 0];
}, [[], false]);

/** HostFirmwareComponents: the updates its host would apply, and whether any are asked for. */
export const firmwareComponentsSeenChanged = firmwareSeenChanged((object) => {
  const components = safeParseCached(hostFirmwareComponentsSchema, object).data;
  return [pendingFirmwareUpdates(components), (components?.spec.updates.length ?? 0) > 0];
}, [[], false]);
