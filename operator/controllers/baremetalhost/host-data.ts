import { HARDWARE_DETAILS_ANNOTATION, STATUS_ANNOTATION } from '../../api/annotations.ts';
import type { HardwareData } from '../../api/hardwaredata.ts';
import { formatTime } from '../../runtime/conditions.ts';
import { deepEqual } from '../../runtime/deep-equal.ts';
import { TerminalError } from '../../runtime/errors.ts';
import type { Logger } from '../../runtime/logger.ts';
import { parseHardwareDetails, parseStatusAnnotation } from './annotations.ts';
import type { HostEvent } from './events.ts';
import { normal, warning } from './events.ts';
import type { HardwareDataAccess } from './hardware-data-store.ts';
import type { Host } from './host.ts';
import { annotationsOf, inspectionDisabled, isDeleting } from './host.ts';
import type { HostWrites } from './host-session.ts';
import { createMergePatch } from './merge-patch.ts';

export interface HostDataStep {
  host: Host;
  /** The status as stored (undefined for a new host), to diff against. */
  storedStatus: unknown;
  hardwareData: HardwareData | undefined;
  session: HostWrites;
  hardwareDataStore: HardwareDataAccess;
  now: Date;
  log: Logger;
  publish(event: HostEvent): void;
}

/** Whether the pass must end here and come back (something was written). */
export type StepOutcome = 'requeue' | 'continue';

/**
 * BMO's `reconcileHostData`: let HardwareData go when the host is deleted; restore an empty
 * status from the status annotation (pivoting), then drop the annotation; fill
 * spec.architecture from HardwareData.
 */
export async function reconcileHostData(step: HostDataStep): Promise<StepOutcome> {
  const { host, session } = step;
  const name = { namespace: host.metadata.namespace, name: host.metadata.name ?? '' };
  if (isDeleting(host) && step.hardwareDataStore.holds(name)) await step.hardwareDataStore.release(name);

  const saved = annotationsOf(host)[STATUS_ANNOTATION];
  if (!host.status.lastUpdated && saved) {
    const parsed = parseStatusAnnotation(saved);
    if (parsed.ok) {
      step.log.info('reconstructing status from the status annotation and HardwareData');
      const restored = parsed.value;
      if (step.hardwareData?.spec.hardware) restored.hardware = step.hardwareData.spec.hardware;
      // Without lastUpdated the next pass would restore again.
      restored.lastUpdated ||= formatTime(step.now);
      await session.patchStatus(createMergePatch(step.storedStatus ?? {}, restored) ?? {});
      return 'requeue';
    }
    step.publish(warning('InvalidAnnotationValue', `ignoring status annotation: ${parsed.message}`));
  }
  if (saved !== undefined) {
    // The status subresource is authoritative now; the copy would only go stale.
    await session.removeAnnotations([STATUS_ANNOTATION]);
    return 'requeue';
  }

  const arch = step.hardwareData?.spec.hardware?.cpu?.arch;
  if (!host.spec.architecture && arch) {
    step.log.info('updating architecture from HardwareData', { architecture: arch });
    await session.patchSpec({ architecture: arch });
    return 'requeue';
  }
  return 'continue';
}

/**
 * BMO's `updateHardwareDetails`: when status.hardware is empty or inspection is disabled,
 * take it from HardwareData or the `inspect.metal3.io/hardwaredetails` annotation; the
 * annotation is removed either way.
 */
export async function consumeHardwareDetails(step: HostDataStep): Promise<StepOutcome> {
  const { host, session } = step;
  const annotation = annotationsOf(host)[HARDWARE_DETAILS_ANNOTATION];
  let updated = false;
  if (!host.status.hardware || inspectionDisabled(host)) {
    let details = step.hardwareData?.spec.hardware;
    if (!details && annotation) {
      const parsed = parseHardwareDetails(annotation);
      // Retrying cannot fix the annotation; editing it re-triggers the host.
      if (!parsed.ok) throw new TerminalError(`error parsing HardwareDetails from annotation: ${parsed.message}`);
      details = parsed.value;
    }
    if (details && !deepEqual(host.status.hardware, details)) {
      await session.patchStatus({ hardware: details, lastUpdated: formatTime(step.now), ...(step.storedStatus ? {} : initialStatusFields(host)) });
      step.publish(normal('UpdateHardwareDetails', 'Set HardwareDetails from hardware data or annotation'));
      updated = true;
    }
  }
  if (annotation !== undefined) {
    await session.removeAnnotations([HARDWARE_DETAILS_ANNOTATION]);
    if (!updated) step.publish(normal('RemoveAnnotation', 'HardwareDetails annotation ignored, status already set and inspection is not disabled'));
  }
  return updated ? 'requeue' : 'continue';
}

/** A status written before any other must carry the fields the CRD requires. */
function initialStatusFields(host: Host): Record<string, unknown> {
  const { hardware: _hardware, ...rest } = host.status;
  return rest;
}
