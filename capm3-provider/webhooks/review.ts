import type { z } from 'zod';
import { allowed, denied, invalid, patched } from '../../operator/runtime/index.ts';
import type { AdmissionHandler, AdmissionRequest, FieldError, JsonPatchOperation, Logger } from '../../operator/runtime/index.ts';
import { INFRASTRUCTURE_GROUP } from '../api/index.ts';

/** What a kind's rules found: errors refuse the request, warnings are shown either way. */
export interface RuleOutcome {
  errors: FieldError[];
  warnings?: string[];
}

export interface ValidatingRules<T> {
  kind: string;
  schema: z.ZodType<T>;
  /** `old` is set on UPDATE. */
  validate(object: T, old: T | undefined): RuleOutcome;
}

export interface DefaultingRules {
  kind: string;
  /** The JSON Patch that fills what is unset; on the object as sent, before schema defaults. */
  defaults(object: unknown): JsonPatchOperation[];
}

function schemaProblem(kind: string, error: z.ZodError): string {
  const detail = error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
  return `not a valid ${kind}: ${detail}`;
}

const isWrite = (request: AdmissionRequest) => request.operation === 'CREATE' || request.operation === 'UPDATE';

/** A validating webhook as controller-runtime runs CAPM3's: CREATE and UPDATE checked, DELETE allowed. */
export function validatingHandler<T>(rules: ValidatingRules<T>, deps: { logger: Logger }): AdmissionHandler {
  return (request) => {
    if (!isWrite(request)) return allowed(request.uid);
    const parsed = rules.schema.safeParse(request.object);
    if (!parsed.success) return denied(request.uid, { message: schemaProblem(rules.kind, parsed.error) });
    let old: T | undefined;
    if (request.operation === 'UPDATE') {
      const parsedOld = rules.schema.safeParse(request.oldObject);
      if (!parsedOld.success) return denied(request.uid, { message: `the stored ${rules.kind} cannot be read: ${schemaProblem(rules.kind, parsedOld.error)}` });
      old = parsedOld.data;
    }
    const { errors, warnings = [] } = rules.validate(parsed.data, old);
    const target = { kind: rules.kind, namespace: request.namespace, name: request.name };
    const operation = request.operation.toLowerCase();
    if (errors.length === 0) {
      deps.logger.debug(`validate ${operation}`, target);
      return allowed(request.uid, { warnings });
    }
    const response = invalid(request.uid, { kind: rules.kind, group: INFRASTRUCTURE_GROUP, name: request.name ?? '', errors, warnings });
    deps.logger.info(`validate ${operation}: denied`, { ...target, reason: response.response.status?.message });
    return response;
  };
}

/** A defaulting webhook: fills what is unset; anything else (a malformed object) is left for the API server's schema to refuse. */
export function defaultingHandler(rules: DefaultingRules, deps: { logger: Logger }): AdmissionHandler {
  return (request) => {
    if (!isWrite(request)) return allowed(request.uid);
    const operations = rules.defaults(request.object);
    if (operations.length > 0) {
      deps.logger.debug(`default ${request.operation.toLowerCase()}`, { kind: rules.kind, namespace: request.namespace, name: request.name, paths: operations.map((op) => op.path) });
    }
    return patched(request.uid, operations);
  };
}
