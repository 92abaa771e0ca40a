import type { z } from 'zod';
import type { conditionsSchema, v1beta1ConditionSchema } from '../common.ts';
import { restoredAt } from './conversion-data.ts';
import type { JsonObject } from './conversion-data.ts';

type Conditions = z.output<typeof conditionsSchema>;
type LegacyConditions = z.output<typeof v1beta1ConditionSchema>[];

interface LegacyStatus {
  ready?: boolean | undefined;
  failureReason?: string | undefined;
  failureMessage?: string | undefined;
  conditions?: LegacyConditions | undefined;
  v1beta2?: { conditions?: Conditions | undefined } | undefined;
}

interface ContractStatus {
  conditions?: Conditions | undefined;
  initialization?: { provisioned?: boolean | undefined } | undefined;
  deprecated?: { v1beta1?: { conditions?: LegacyConditions | undefined; failureReason?: string | undefined; failureMessage?: string | undefined } | undefined } | undefined;
}

/**
 * v1beta1's contract fields in v1beta2's places: `ready` becomes `initialization.provisioned`
 * (an explicit false only when the object had one), the legacy conditions and failures move
 * under `deprecated.v1beta1`, and `v1beta2.conditions` become the conditions.
 */
export function contractStatusUp(status: LegacyStatus, restored: JsonObject | undefined): ContractStatus {
  const hadFalse = restoredAt(restored, ['status', 'initialization'])?.provisioned === false;
  const provisioned = status.ready === true ? true : hadFalse ? false : undefined;
  const { conditions, failureReason, failureMessage } = status;
  const hasLegacy = conditions !== undefined || failureReason !== undefined || failureMessage !== undefined;
  return {
    conditions: status.v1beta2?.conditions,
    initialization: provisioned === undefined ? undefined : { provisioned },
    deprecated: hasLegacy ? { v1beta1: { conditions, failureReason, failureMessage } } : undefined,
  };
}

/** The reverse of contractStatusUp. */
export function contractStatusDown(status: ContractStatus): LegacyStatus {
  const legacy = status.deprecated?.v1beta1;
  return {
    ready: status.initialization?.provisioned ?? false,
    failureReason: legacy?.failureReason,
    failureMessage: legacy?.failureMessage,
    conditions: legacy?.conditions,
    v1beta2: status.conditions === undefined ? undefined : { conditions: status.conditions },
  };
}
