// BMO's handleDataImageActions: a provisioned host that is off but wanted on (a reboot, or
// online: true) gets its DataImage attached, swapped or detached before it powers on.
import type { DataImageStatus } from '../../api/dataimage.ts';
import { formatTime } from '../../runtime/conditions.ts';
import type { Action } from './action.ts';
import { continueAfter } from './action.ts';
import { errorBackoffMs } from './backoff.ts';
import { warning } from './events.ts';
import type { Host } from './host.ts';
import { identityOf } from './host.ts';
import type { StateContext } from './state-context.ts';
import { publish } from './state-context.ts';

/** BMO's dataImageUpdateDelay: the shortest wait after a failure. */
const DATA_IMAGE_RETRY_MIN_MS = 30_000;
/** After an accepted attach or detach: Ironic runs it on the conductor, holding the node's lock meanwhile. */
const DATA_IMAGE_SETTLE_MS = 5_000;

/** How Ironic words a detach that failed on the conductor. */
const DETACH_FAILURE = /^Could not detach device/;

/** Reason of the Warning event on the host when attaching or detaching fails. */
export const DATA_IMAGE_ERROR_REASON = 'DataImageError';

/**
 * Undefined when there is nothing (more) to do and power handling may go on; otherwise when to
 * look again. Every outcome is written to the DataImage's status (lastReconciled, attachedImage,
 * error); failures also count up, back off and are said in an event and the log.
 */
export async function handleDataImage(host: Host, context: StateContext): Promise<Action | undefined> {
  const image = context.ports.readDataImage();
  if (image === undefined) return undefined;
  const identity = identityOf(host);
  const status: Required<DataImageStatus> = {
    lastReconciled: formatTime(context.now()),
    attachedImage: { url: image.status?.attachedImage?.url ?? '' },
    error: { count: image.status?.error?.count ?? 0, message: image.status?.error?.message ?? '' },
  };
  const save = () => context.ports.writeDataImageStatus(image, status);
  const failure = async (message: string): Promise<Action> => {
    status.error = { count: status.error.count + 1, message };
    context.log.info('DataImage failed', { dataImage: image.spec.url, errorCount: status.error.count, error: message });
    publish(context, warning(DATA_IMAGE_ERROR_REASON, message));
    await save();
    return continueAfter(retryAfter(status.error.count, context));
  };

  const reading = await context.provisioner.dataImageStatus({ host: identity });
  // A locked node: most likely our own attach or detach still running (BMO's ErrNodeIsBusy, not an error).
  if (reading.kind === 'busy') return continueAfter(reading.afterMs);
  if (reading.kind === 'failed') return failure(reading.message);
  const { attached, lastFailure } = reading.value;

  // Recorded as attached, but the BMC has nothing: it failed (Ironic says why) or was ejected.
  if (!attached && status.attachedImage.url !== '') {
    status.attachedImage = { url: '' };
    if (lastFailure !== undefined) return failure(lastFailure);
    await save();
    return continueAfter();
  }
  const deleting = image.metadata.deletionTimestamp !== undefined;
  const wanted = deleting ? '' : image.spec.url;
  if (attached && (deleting || status.attachedImage.url !== wanted)) {
    context.log.info(deleting ? 'detaching DataImage as its deletion has been requested' : 'detaching DataImage as its URL has changed', { dataImage: status.attachedImage.url });
    const result = await context.provisioner.detachDataImage({ host: identity });
    // The last detach failed on the conductor (its words are in last_error, which this new
    // request clears): counted once, and the next look waits the backoff.
    if (result.kind !== 'failed' && lastFailure !== undefined && DETACH_FAILURE.test(lastFailure)) return failure(lastFailure);
    return requested(result);
  }
  if (!attached && wanted !== '') {
    context.log.info('attaching DataImage', { dataImage: wanted });
    const result = await context.provisioner.attachDataImage({ host: identity, url: wanted });
    // As BMO: recorded as attached now; the next read puts it right if the conductor fails.
    if (result.kind === 'done') status.attachedImage = { url: wanted };
    return requested(result);
  }
  // In place (or gone, for a deleted DataImage, whose controller then drops the finalizer).
  status.error = { count: 0, message: '' };
  await save();
  return undefined;

  async function requested(result: Awaited<ReturnType<typeof context.provisioner.attachDataImage>>): Promise<Action> {
    if (result.kind === 'failed') return failure(result.message);
    await save();
    return continueAfter(result.kind === 'busy' ? result.afterMs : DATA_IMAGE_SETTLE_MS);
  }
}

/** BMO's delay after failures: the host's error backoff, never under 30 s. */
function retryAfter(errorCount: number, context: StateContext): number {
  return Math.max(DATA_IMAGE_RETRY_MIN_MS, errorBackoffMs(errorCount, context.random));
}

