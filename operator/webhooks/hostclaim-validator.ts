import { hostClaimSchema } from '../api/hostclaim.ts';
import type { HostClaim } from '../api/hostclaim.ts';
import { allowed, denied, labelKeyProblems, labelValueProblems, verdict } from '../runtime/index.ts';
import type { AdmissionRequest, AdmissionResponseBody, Logger, Violation } from '../runtime/index.ts';
import { imageProblems, rebootAnnotationProblem } from './baremetalhost/index.ts';

/** BMO's path for the HostClaim validating webhook. */
export const HOSTCLAIM_WEBHOOK_PATH = '/validate-metal3-io-v1alpha1-hostclaim';

const SELECTOR = 'spec.hostSelector';

/** One match expression, by BMO's rules: its operators as written (this webhook takes no gt/lt and no capitals), and how many values each takes. */
function expressionViolations(expression: { key: string; operator: string; values: string[] }, position: number): Violation[] {
  const field = `${SELECTOR}.matchExpressions[${position - 1}]`;
  const at = `matchExpr ${position}`;
  const violations: Violation[] = labelKeyProblems(expression.key).map((problem) => ({ field: `${field}.key`, message: `${at}: ${problem}` }));
  const { operator, values, key } = expression;
  const valueProblems = (value: string) => labelValueProblems(value).map((problem) => ({ field: `${field}.values`, message: `${at} (value ${JSON.stringify(value)}): ${problem}` }));
  switch (operator) {
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) violations.push({ field: `${field}.values`, message: `${at}: exactly one value for operator ${operator} in match expression on label key ${key}` });
      else violations.push(...valueProblems(values[0] as string));
      break;
    case 'in':
    case 'notin':
      if (values.length === 0) violations.push({ field: `${field}.values`, message: `${at}: At least one value in list for operator ${operator} in match expression on label key ${key}` });
      for (const value of values) violations.push(...valueProblems(value));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) violations.push({ field: `${field}.values`, message: `${at}: values not authorized for operator ${operator} in match expression on label key ${key}` });
      break;
    default:
      violations.push({ field: `${field}.operator`, message: `${at}: invalid operation ${operator} in match expression on label key ${key}` });
  }
  return violations;
}

/** BMO's validateHostClaim, with BMO's messages: the selector's labels and expressions, the reboot annotations and the image. */
export function validateHostClaim(claim: HostClaim): Violation[] {
  const selector = claim.spec.hostSelector;
  const violations: Violation[] = [];
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) {
    for (const problem of [...labelKeyProblems(key), ...labelValueProblems(value)]) {
      violations.push({ field: `${SELECTOR}.matchLabels[${key}]`, message: `${key}=${value}: ${problem}` });
    }
  }
  (selector?.matchExpressions ?? []).forEach((expression, index) => violations.push(...expressionViolations(expression, index + 1)));
  for (const [key, value] of Object.entries(claim.metadata.annotations ?? {})) {
    const problem = rebootAnnotationProblem(key, value);
    if (problem !== undefined) violations.push({ field: `metadata.annotations[${key}]`, message: problem });
  }
  if (claim.spec.image) violations.push(...imageProblems(claim.spec.image));
  return violations;
}

/** Answers an AdmissionReview for a HostClaim: the same rules on create and update. */
export function reviewHostClaim(request: AdmissionRequest, deps: { logger: Logger }): AdmissionResponseBody {
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return allowed(request.uid);
  const parsed = hostClaimSchema.safeParse(request.object);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    return denied(request.uid, { message: `not a valid HostClaim: ${detail}` });
  }
  const claim = parsed.data;
  const target = { namespace: request.namespace ?? claim.metadata.namespace, name: request.name ?? claim.metadata.name };
  return verdict(request, { target, violations: validateHostClaim(claim), logger: deps.logger });
}
