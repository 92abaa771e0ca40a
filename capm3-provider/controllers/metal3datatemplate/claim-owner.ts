import type { OwnerReference } from '../../../operator/runtime/index.ts';
import { INFRASTRUCTURE_GROUP, Metal3MachineResource } from '../../api/index.ts';
import type { Metal3DataClaim } from '../../api/index.ts';

/** The Metal3Machine a claim was made for (its owner reference); Metal3Data are owned by it too. */
export function claimMachine(claim: Metal3DataClaim): OwnerReference | undefined {
  return claim.metadata.ownerReferences?.find((owner) =>
    owner.kind === Metal3MachineResource.kind && owner.apiVersion.startsWith(`${INFRASTRUCTURE_GROUP}/`));
}
