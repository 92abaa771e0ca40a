import type { Condition } from '../../operator/runtime/index.ts';
import { formatTime, setCondition } from '../../operator/runtime/index.ts';

/** Cluster API's condition through which an external remediation hands a Machine back to its owner for deletion. */
export const OWNER_REMEDIATED_CONDITION = 'OwnerRemediated';
export const WAITING_FOR_REMEDIATION_REASON = 'WaitingForRemediation';

interface V1Beta1Condition {
  type: string;
  status: string;
  severity?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface MachineConditions {
  conditions?: Condition[] | undefined;
  v1beta1?: V1Beta1Condition[] | undefined;
}

/**
 * The Machine's conditions with OwnerRemediated False (both the v1beta2 list the MachineSet
 * reads and the deprecated v1beta1 one CAPM3 writes), every other condition kept.
 */
export function ownerRemediatedFalse(current: MachineConditions, options: { message: string; now: Date }): Required<MachineConditions> {
  const conditions = setCondition(current.conditions, {
    type: OWNER_REMEDIATED_CONDITION, status: 'False', reason: WAITING_FOR_REMEDIATION_REASON, message: options.message,
  }, { now: options.now });
  const legacy = (current.v1beta1 ?? []).filter((condition) => condition.type !== OWNER_REMEDIATED_CONDITION);
  const previous = current.v1beta1?.find((condition) => condition.type === OWNER_REMEDIATED_CONDITION);
  legacy.push({
    type: OWNER_REMEDIATED_CONDITION, status: 'False', severity: 'Warning', reason: WAITING_FOR_REMEDIATION_REASON, message: options.message,
    lastTransitionTime: previous?.status === 'False' && previous.lastTransitionTime ? previous.lastTransitionTime : formatTime(options.now),
  });
  return { conditions, v1beta1: legacy };
}
