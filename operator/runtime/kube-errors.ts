/** A `metav1.Status` cause, as the API server reports validation failures. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** The parts of a failed API call that code branches on. */
export interface KubeError {
  /** HTTP status code; 0 when the request never got an answer (network, abort). */
  code: number;
  /** `metav1.Status.reason`, e.g. `NotFound`, `Conflict`, `AlreadyExists`, `Expired`. */
  reason: string;
  message: string;
  causes: StatusCause[];
}

/** A `metav1.Status` in object form, as found in API error bodies and watch ERROR events. */
export interface KubeStatus {
  kind?: string;
  status?: string;
  code?: number;
  reason?: string;
  message?: string;
  details?: { causes?: StatusCause[] };
}

/** Thrown by the runtime for failures reported as a Status object (watch ERROR events). */
export class KubeStatusError extends Error {
  readonly code: number;
  readonly status: KubeStatus;

  constructor(status: KubeStatus) {
    super(status.message ?? `Kubernetes API error ${status.code ?? ''} ${status.reason ?? ''}`.trim());
    this.name = 'KubeStatusError';
    this.code = status.code ?? 0;
    this.status = status;
  }
}

const REASON_BY_CODE: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** client-node 2.x puts the raw response text in `ApiException.body`; sometimes it is already parsed. */
function parseStatusBody(body: unknown): KubeStatus | undefined {
  if (typeof body === 'string') {
    try {
      const parsed: unknown = JSON.parse(body);
      return isRecord(parsed) ? (parsed as KubeStatus) : undefined;
    } catch {
      return body ? { message: body } : undefined;
    }
  }
  return isRecord(body) ? (body as KubeStatus) : undefined;
}

/**
 * Normalises anything thrown by client-node (ApiException with a JSON-string body,
 * watch errors with `statusCode`, network errors) or by the runtime into one shape.
 */
export function toKubeError(error: unknown): KubeError {
  if (error instanceof KubeStatusError) return fromStatus(error.status, error.code, error.message);
  if (isRecord(error)) {
    const code = typeof error.code === 'number' ? error.code : typeof error.statusCode === 'number' ? error.statusCode : 0;
    if (code > 0) {
      const status = parseStatusBody(error.body);
      const fallback = typeof error.message === 'string' ? error.message : `HTTP ${code}`;
      return fromStatus(status ?? {}, code, fallback);
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 0, reason: 'Unknown', message, causes: [] };
}

function fromStatus(status: KubeStatus, code: number, fallbackMessage: string): KubeError {
  const effectiveCode = status.code ?? code;
  return {
    code: effectiveCode,
    reason: status.reason || REASON_BY_CODE[effectiveCode] || 'Unknown',
    message: status.message || fallbackMessage,
    causes: status.details?.causes ?? [],
  };
}

export function isNotFound(error: unknown): boolean {
  const e = toKubeError(error);
  return e.reason === 'NotFound' || (e.code === 404 && e.reason !== 'AlreadyExists');
}

/** A resourceVersion precondition failed (409 Conflict, but not AlreadyExists, which is also 409). */
export function isConflict(error: unknown): boolean {
  const e = toKubeError(error);
  return e.reason === 'Conflict' || (e.code === 409 && e.reason !== 'AlreadyExists');
}

export function isAlreadyExists(error: unknown): boolean {
  return toKubeError(error).reason === 'AlreadyExists';
}

/** The requested resourceVersion is too old (410 Gone / reason Expired): relist. */
export function isGone(error: unknown): boolean {
  const e = toKubeError(error);
  return e.code === 410 || e.reason === 'Expired' || e.reason === 'Gone';
}

export function isInvalid(error: unknown): boolean {
  const e = toKubeError(error);
  return e.reason === 'Invalid' || e.code === 422;
}

/**
 * A create refused because its namespace is being deleted (403 with the `NamespaceTerminating`
 * cause): nothing new can be made there again, and every object in it is about to be deleted.
 */
export function isNamespaceTerminating(error: unknown): boolean {
  const e = toKubeError(error);
  return e.code === 403 && e.causes.some((cause) => cause.reason === 'NamespaceTerminating');
}

export function isForbidden(error: unknown): boolean {
  const e = toKubeError(error);
  return e.reason === 'Forbidden' || e.code === 403;
}
