import type { ProvisioningState } from '../../api/provisioning-state.ts';
import { deleteDelayedForDetached } from './annotations.ts';
import { DELETION_RETRY_COUNT } from './delays.ts';
import { detachesNow } from './detach.ts';
import type { Host } from './host.ts';
import { isDeleting, stateOf } from './host.ts';

/** What a deletion request means for the host now: a state to move to, `hold` (detached with deleteAction delay), or nothing. */
export type DeletionRoute = ProvisioningState | 'hold' | undefined;

/**
 * BMO's `checkInitiateDelete`. Detached hosts skip power-off and deprovisioning; unregistered
 * ones go straight to deleting; deployed ones deprovision first; everything else powers off
 * first. Better than BMO, a detached annotation counts before the status catches up, but only
 * where it detaches the host at once (at rest, or forced): a host deleted mid-deployment with a
 * detach still waiting is deprovisioned, as in BMO.
 */
export function deletionRoute(host: Host): DeletionRoute {
  if (!isDeleting(host)) return undefined;
  const state = stateOf(host);
  if (state !== 'deleting' && (host.status.operationalStatus === 'detached' || detachesNow(host))) {
    return deleteDelayedForDetached(host) ? 'hold' : 'deleting';
  }
  const stuckRegistering = host.status.errorType === 'registration error' && host.status.errorCount > DELETION_RETRY_COUNT;
  switch (state) {
    case '':
    case 'unmanaged':
    case 'registering':
      return 'deleting';
    case 'provisioning':
    case 'provisioned':
      return 'deprovisioning';
    case 'deprovisioning':
    case 'powering off before delete':
      return stuckRegistering ? 'deleting' : undefined;
    case 'deleting':
      return undefined;
    default:
      return 'powering off before delete';
  }
}
