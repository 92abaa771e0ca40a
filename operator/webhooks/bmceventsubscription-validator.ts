import { bmcEventSubscriptionSchema } from '../api/bmceventsubscription.ts';
import type { BMCEventSubscription } from '../api/bmceventsubscription.ts';
import { deepEqual } from '../runtime/index.ts';
import type { Logger } from '../runtime/index.ts';
import type { AdmissionRequest, AdmissionResponseBody } from '../runtime/index.ts';
import { allowed, denied, verdict } from '../runtime/index.ts';
import type { Violation } from '../runtime/index.ts';
import { destinationProblem } from './destination-problem.ts';

/** BMO's path for the BMCEventSubscription validating webhook. */
export const BMCEVENTSUBSCRIPTION_WEBHOOK_PATH = '/validate-metal3-io-v1alpha1-bmceventsubscription';

/** BMO's rules for a new BMCEventSubscription, with BMO's messages. */
export function validateBMCEventSubscription(subscription: BMCEventSubscription, namespace: string): Violation[] {
  const { hostName, httpHeadersRef, destination } = subscription.spec;
  const violations: Violation[] = [];
  if (!hostName) violations.push({ field: 'spec.hostName', message: 'hostName cannot be empty' });
  if (httpHeadersRef && httpHeadersRef.namespace !== namespace) {
    violations.push({ field: 'spec.httpHeadersRef', message: 'httpHeadersRef secret must be in the same namespace as the BMCEventSubscription' });
  }
  const problem = destination ? destinationProblem(destination) : 'destination cannot be empty';
  if (problem !== undefined) violations.push({ field: 'spec.destination', message: problem });
  return violations;
}

/**
 * Answers an AdmissionReview for a BMCEventSubscription: the rules on create; on update only
 * that the spec is unchanged (a subscription on the BMC is made once; BMO compares by value
 * here too, so metadata and status writes pass).
 */
export function reviewBMCEventSubscription(request: AdmissionRequest, deps: { logger: Logger }): AdmissionResponseBody {
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return allowed(request.uid);
  const parsed = bmcEventSubscriptionSchema.safeParse(request.object);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    return denied(request.uid, { message: `not a valid BMCEventSubscription: ${detail}` });
  }
  const subscription = parsed.data;
  const namespace = request.namespace ?? subscription.metadata.namespace ?? '';
  const target = { namespace, name: request.name ?? subscription.metadata.name };
  let violations: Violation[];
  if (request.operation === 'CREATE') {
    violations = validateBMCEventSubscription(subscription, namespace);
  } else {
    const old = bmcEventSubscriptionSchema.safeParse(request.oldObject);
    const unchanged = old.success && deepEqual(old.data.spec, subscription.spec);
    violations = unchanged ? [] : [{ field: 'spec', message: 'subscriptions cannot be updated, please recreate it' }];
  }
  return verdict(request, { target: target, violations, logger: deps.logger });
}
