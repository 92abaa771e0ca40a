import type { Condition } from '../../api/conditions.ts';
import type { BmcProblem } from '../../provisioner/provisioner.ts';
import { bmcProblemKindIn, bmcProblemMessage } from './conditions.ts';
import type { HostEvent } from './events.ts';
import { normal, warning } from './events.ts';

export const BMC_NOT_ANSWERING_REASON = 'BMCNotAnswering';
export const BMC_REFUSES_CREDENTIALS_REASON = 'BMCRefusesCredentials';
export const BMC_ANSWERING_REASON = 'BMCAnswering';

/**
 * The event for a change in whether the BMC works, told by the conditions before and after a
 * pass (Manageable False for PowerFailure): a Warning when a problem starts or turns into the
 * other kind, a Normal event naming the problem that ended; none while nothing changes, so a long
 * outage is one Warning and its end one Normal event.
 */
export function bmcAnsweringChange(before: readonly Condition[] | undefined, problem: BmcProblem | undefined): HostEvent | undefined {
  const was = bmcProblemKindIn(before);
  if (problem && problem.kind !== was) {
    return warning(problem.kind === 'refuses credentials' ? BMC_REFUSES_CREDENTIALS_REASON : BMC_NOT_ANSWERING_REASON, bmcProblemMessage(problem));
  }
  if (!problem && was) {
    return normal(BMC_ANSWERING_REASON, was === 'refuses credentials' ? 'the BMC accepts the credentials again' : 'the BMC is answering again');
  }
  return undefined;
}
