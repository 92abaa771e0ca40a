import type { Condition, ConditionStatus } from '../../api/conditions.ts';
import { setCondition } from '../../runtime/conditions.ts';
import type { BmcProblem, NodeHealth } from '../../provisioner/provisioner.ts';
import type { Host } from './host.ts';

/** Condition types and reasons, spelled as BMO spells them. */
export const CONDITION = {
  manageable: 'Manageable',
  availableForProvisioning: 'AvailableForProvisioning',
  provisioned: 'Provisioned',
  ready: 'Ready',
  progressing: 'Progressing',
  healthy: 'Healthy',
} as const;

export const REASON = {
  manageable: 'Manageable',
  notManaged: 'NotManaged',
  registering: 'Registering',
  registrationFailed: 'RegistrationFailed',
  provisioned: 'Provisioned',
  notProvisioned: 'NotProvisioned',
  provisioning: 'Provisioning',
  error: 'Error',
  detached: 'Detached',
  servicing: 'Servicing',
  available: 'Available',
  notAvailable: 'NotAvailable',
  inspecting: 'Inspecting',
  preparing: 'Preparing',
  deprovisioning: 'Deprovisioning',
  poweringOffBeforeDelete: 'PoweringOffBeforeDelete',
  deleting: 'Deleting',
  notProgressing: 'NotProgressing',
  healthy: 'Healthy',
  warningHealth: 'Warning',
  criticalHealth: 'CriticalError',
  unknownHealth: 'Unknown',
  /** BMO's reason for a host whose BMC does not answer (Ironic's `power failure` fault). */
  powerFailure: 'PowerFailure',
} as const;

type Setting = [type: string, status: ConditionStatus, reason: string];

function progressing(reason: string): Setting[] {
  return [
    [CONDITION.manageable, 'True', REASON.manageable],
    [CONDITION.availableForProvisioning, 'False', REASON.notAvailable],
    [CONDITION.provisioned, 'False', REASON.notProvisioned],
    [CONDITION.ready, 'False', REASON.notProvisioned],
    [CONDITION.progressing, 'True', reason],
  ];
}

function settingsForState(host: Host): Setting[] {
  switch (host.status.provisioning.state) {
    case '':
    case 'unmanaged':
      return [
        [CONDITION.manageable, 'False', REASON.notManaged],
        [CONDITION.availableForProvisioning, 'False', REASON.notAvailable],
        [CONDITION.provisioned, 'False', REASON.notProvisioned],
        [CONDITION.ready, 'False', REASON.notProvisioned],
        [CONDITION.progressing, 'False', REASON.notProgressing],
      ];
    case 'registering':
      return [
        [CONDITION.manageable, 'False', host.status.operationalStatus === 'error' ? REASON.registrationFailed : REASON.registering],
        [CONDITION.availableForProvisioning, 'False', REASON.notAvailable],
        [CONDITION.provisioned, 'False', REASON.notProvisioned],
        [CONDITION.ready, 'False', REASON.notProvisioned],
        [CONDITION.progressing, 'True', REASON.registering],
      ];
    case 'preparing':
      return progressing(REASON.preparing);
    case 'ready':
    case 'available':
      return [
        [CONDITION.manageable, 'True', REASON.manageable],
        [CONDITION.availableForProvisioning, 'True', REASON.available],
        [CONDITION.provisioned, 'False', REASON.notProvisioned],
        [CONDITION.ready, 'False', REASON.notProvisioned],
        [CONDITION.progressing, 'False', REASON.notProgressing],
      ];
    case 'provisioning':
      return progressing(REASON.provisioning);
    case 'provisioned':
    case 'externally provisioned':
      return [
        [CONDITION.manageable, 'True', REASON.manageable],
        [CONDITION.availableForProvisioning, 'False', REASON.notAvailable],
        [CONDITION.provisioned, 'True', REASON.provisioned],
        [CONDITION.ready, 'True', REASON.provisioned],
        [CONDITION.progressing, 'False', REASON.notProgressing],
      ];
    case 'deprovisioning':
      return progressing(REASON.deprovisioning);
    case 'inspecting':
    case 'match profile':
      return progressing(REASON.inspecting);
    case 'powering off before delete':
      return progressing(REASON.poweringOffBeforeDelete);
    case 'deleting':
      return progressing(REASON.deleting);
  }
}

function settingsForOperationalStatus(host: Host): Setting[] {
  switch (host.status.operationalStatus) {
    case 'error':
      return [[CONDITION.ready, 'False', REASON.error]];
    case 'servicing':
      return [[CONDITION.ready, 'False', REASON.servicing]];
    case 'detached':
      return [
        [CONDITION.ready, 'False', REASON.detached],
        [CONDITION.progressing, 'False', REASON.detached],
      ];
    default:
      return [];
  }
}

/** Healthy from Ironic's node health, as BMO maps it; undefined when health is not reported. */
function healthSetting(health: NodeHealth): Setting | undefined {
  switch (health) {
    case undefined:
    case '':
      return undefined;
    case 'OK':
      return [CONDITION.healthy, 'True', REASON.healthy];
    case 'Warning':
      return [CONDITION.healthy, 'False', REASON.warningHealth];
    case 'Critical':
      return [CONDITION.healthy, 'False', REASON.criticalHealth];
    default:
      return [CONDITION.healthy, 'Unknown', REASON.unknownHealth];
  }
}

const BMC_PROBLEM_WORDS: Record<BmcProblem['kind'], string> = {
  'not answering': 'the BMC is not answering',
  'refuses credentials': 'the BMC refuses the credentials',
};

/** The message of Manageable=False/PowerFailure: what a user reads while the BMC fails Ironic. */
export function bmcProblemMessage(problem: BmcProblem): string {
  return `${BMC_PROBLEM_WORDS[problem.kind]}: ${problem.detail}`;
}

/**
 * The BMC problem the conditions say (Manageable False for PowerFailure), told by the message's
 * opening words; undefined while the BMC works.
 */
export function bmcProblemKindIn(conditions: readonly Condition[] | undefined): BmcProblem['kind'] | undefined {
  const manageable = (conditions ?? []).find((c) => c.type === CONDITION.manageable && c.status === 'False' && c.reason === REASON.powerFailure);
  if (!manageable) return undefined;
  return manageable.message?.startsWith(BMC_PROBLEM_WORDS['refuses credentials']) ? 'refuses credentials' : 'not answering';
}

/**
 * BMO's `computeConditions`, recomputed on every pass. `health` is the provisioner's report
 * (Ironic's node `health`); without one, Healthy keeps its last value, or starts Unknown.
 * `bmcProblem` (the provisioner's words for a BMC that does not answer or refuses the credentials) makes Manageable False
 * with BMO's PowerFailure reason and that message, whatever the state says, until it clears.
 */
export function computeConditions(host: Host, now: Date, options: { health?: NodeHealth; bmcProblem?: BmcProblem | undefined } = {}): Condition[] {
  let conditions: Condition[] = host.status.conditions ?? [];
  const generation = host.metadata.generation;
  const apply = ([type, status, reason]: Setting, message?: string): void => {
    conditions = setCondition(conditions, { type, status, reason, ...(message ? { message } : {}),
      ...(generation !== undefined ? { observedGeneration: generation } : {}) }, { now });
  };
  // Later settings win; applying each type once keeps lastTransitionTime honest.
  const byType = new Map<string, Setting>();
  for (const setting of [...settingsForState(host), ...settingsForOperationalStatus(host)]) byType.set(setting[0], setting);
  const bmcProblem = host.status.operationalStatus === 'detached' ? undefined : options.bmcProblem;
  if (bmcProblem) byType.delete(CONDITION.manageable);
  for (const setting of byType.values()) apply(setting);
  if (bmcProblem) apply([CONDITION.manageable, 'False', REASON.powerFailure], bmcProblemMessage(bmcProblem));
  const health = healthSetting(options.health);
  if (health) apply(health);
  else if (!conditions.some((c) => c.type === CONDITION.healthy)) apply([CONDITION.healthy, 'Unknown', REASON.unknownHealth]);
  return conditions;
}
