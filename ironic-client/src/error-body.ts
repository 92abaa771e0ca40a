// Turns an Ironic error response into a typed error. Ironic wraps every error body as
// {"error_message": "<string>"}; the string is usually JSON of {faultcode, faultstring, debuginfo},
// WebOb errors (e.g. 406) give JSON of {code, title, description}, the http_basic middleware
// (ironic.common.auth_basic) answers 401s with {"error": {"message", "code"}}, and anything else
// is kept raw.
import {
  IronicApiError,
  IronicBadRequestError,
  IronicConflictError,
  IronicNotAcceptableError,
  IronicNotFoundError,
  IronicServiceUnavailableError,
} from './errors.ts';
import type { ApiErrorDetails, IronicErrorKind, IronicRequestInfo } from './errors.ts';

type Fault = Omit<ApiErrorDetails, 'status'>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function faultFromObject(value: Record<string, unknown>): Fault | undefined {
  const message = optionalString(value.faultstring) ?? optionalString(value.description) ?? optionalString(value.title);
  if (message === undefined) return undefined;
  return {
    faultstring: message,
    faultcode: optionalString(value.faultcode),
    debuginfo: optionalString(value.debuginfo),
  };
}

function faultFromMessage(message: unknown): Fault | undefined {
  if (isRecord(message)) return faultFromObject(message);
  if (typeof message !== 'string') return undefined;
  const inner = tryJson(message);
  if (isRecord(inner)) return faultFromObject(inner) ?? { faultstring: message };
  return { faultstring: message };
}

/** Extracts Ironic's message from an error body of any known shape, falling back to the raw text. */
export function parseErrorBody(body: unknown): Fault {
  const parsed = typeof body === 'string' ? (tryJson(body) ?? body) : body;
  if (isRecord(parsed)) {
    if ('error_message' in parsed) {
      const fault = faultFromMessage(parsed.error_message);
      if (fault) return fault;
    }
    const direct = faultFromObject(parsed);
    if (direct) return direct;
    if (isRecord(parsed.error) && typeof parsed.error.message === 'string') return { faultstring: parsed.error.message };
    return { faultstring: JSON.stringify(parsed) };
  }
  if (typeof parsed === 'string' && parsed.trim() !== '') return { faultstring: parsed.trim() };
  return { faultstring: '(empty error body)' };
}

const KIND_BY_STATUS: Partial<Record<number, IronicErrorKind>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  406: 'not_acceptable',
  409: 'conflict',
  503: 'service_unavailable',
};

/** Generic API error whose kind still tells 401 and 403 apart. */
class IronicStatusError extends IronicApiError {
  override readonly kind: IronicErrorKind;

  constructor(details: ApiErrorDetails, request: IronicRequestInfo, attempts: number) {
    super(details, request, attempts);
    this.kind = KIND_BY_STATUS[details.status] ?? 'api';
    this.name = 'IronicApiError';
  }
}

export function errorFromResponse(status: number, body: unknown, request: IronicRequestInfo, attempts = 1): IronicApiError {
  const details = { status, ...parseErrorBody(body) };
  switch (status) {
    case 400:
      return new IronicBadRequestError(details, request, attempts);
    case 404:
      return new IronicNotFoundError(details, request, attempts);
    case 406:
      return new IronicNotAcceptableError(details, request, attempts);
    case 409:
      return new IronicConflictError(details, request, attempts);
    case 503:
      return new IronicServiceUnavailableError(details, request, attempts);
    default:
      return new IronicStatusError(details, request, attempts);
  }
}
