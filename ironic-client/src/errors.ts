// Typed failures of Ironic calls. They carry what was asked (method, route, URL, microversion)
// and never request headers, so credentials cannot leak into logs.

/** The request an error belongs to. */
export interface IronicRequestInfo {
  /** Upper-case HTTP method. */
  method: string;
  /** Route template, e.g. /v1/nodes/{node_ident}/states/provision. */
  route: string;
  /** Full URL with query string, without user info. */
  url: string;
  /** Microversion sent, if any. */
  microversion?: string;
}

export type IronicErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'not_acceptable'
  | 'conflict'
  | 'service_unavailable'
  | 'api'
  | 'version_unsupported'
  | 'connection'
  | 'contract';

export abstract class IronicError extends Error {
  abstract readonly kind: IronicErrorKind;
  readonly request: IronicRequestInfo | undefined;
  /** Attempts made before giving up (1 when not retried). */
  readonly attempts: number;

  constructor(message: string, request: IronicRequestInfo | undefined, attempts = 1) {
    super(message);
    this.name = new.target.name;
    this.request = request;
    this.attempts = attempts;
  }

  /** Whether trying again later may succeed (a reconciler requeues rather than records a failure). */
  get transient(): boolean {
    return false;
  }
}

export interface ApiErrorDetails {
  status: number;
  faultstring: string;
  faultcode?: string | undefined;
  debuginfo?: string | undefined;
}

// Ironic's own 401 texts ("Authorization required", "Incorrect username or password") do not
// say that the client's credentials are at fault; the message does.
const STATUS_MEANINGS: Partial<Record<number, string>> = { 401: 'authentication failed' };

/** Ironic answered with a non-2xx status. */
export class IronicApiError extends IronicError {
  readonly kind: IronicErrorKind = 'api';
  readonly status: number;
  /** Ironic's own message (faultstring, or WebOb's description, or the raw body). */
  readonly faultstring: string;
  readonly faultcode: string | undefined;
  readonly debuginfo: string | undefined;

  constructor(details: ApiErrorDetails, request: IronicRequestInfo, attempts = 1) {
    const retried = attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
    const meaning = STATUS_MEANINGS[details.status];
    const summary = meaning ? `${meaning}: ${details.faultstring}` : details.faultstring;
    super(`Ironic ${request.method} ${request.url} returned ${details.status}: ${summary}${retried}`, request, attempts);
    this.status = details.status;
    this.faultstring = details.faultstring;
    this.faultcode = details.faultcode;
    this.debuginfo = details.debuginfo;
  }
}

export class IronicBadRequestError extends IronicApiError {
  override readonly kind = 'bad_request';
}

export class IronicNotFoundError extends IronicApiError {
  override readonly kind = 'not_found';
}

/** 406: the microversion sent does not allow this field, verb or endpoint. */
export class IronicNotAcceptableError extends IronicApiError {
  override readonly kind = 'not_acceptable';
}

/**
 * 409. `locked` is true for NodeLocked ("is locked by host"), which clears by itself; other
 * conflicts (duplicate name or MAC, invalid state, mid-transition updates) need a change first.
 */
export class IronicConflictError extends IronicApiError {
  override readonly kind = 'conflict';
  readonly locked: boolean;

  constructor(details: ApiErrorDetails, request: IronicRequestInfo, attempts = 1) {
    super(details, request, attempts);
    this.locked = isNodeLockedMessage(details.faultstring);
  }

  override get transient(): boolean {
    return this.locked;
  }
}

/** 503: no free conductor worker, concurrent action limit, or another temporary failure. */
export class IronicServiceUnavailableError extends IronicApiError {
  override readonly kind = 'service_unavailable';

  override get transient(): boolean {
    return true;
  }
}

/** The server cannot speak a microversion the client needs (checked client-side). */
export class IronicVersionUnsupportedError extends IronicError {
  readonly kind = 'version_unsupported';
  readonly requiredVersion: string;
  /** The server's maximum, or the negotiated version when a feature gate refused the call. */
  readonly availableVersion: string | undefined;

  constructor(message: string, details: { requiredVersion: string; availableVersion?: string }, request?: IronicRequestInfo) {
    super(message, request);
    this.requiredVersion = details.requiredVersion;
    this.availableVersion = details.availableVersion;
  }
}

/** No HTTP response: refused, reset, timed out, DNS or TLS failure. */
export class IronicConnectionError extends IronicError {
  readonly kind = 'connection';
  /** Node's error code, e.g. ECONNREFUSED, ETIMEDOUT, DEPTH_ZERO_SELF_SIGNED_CERT. */
  readonly code: string | undefined;

  constructor(message: string, code: string | undefined, request: IronicRequestInfo, attempts = 1) {
    const retried = attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
    super(`Ironic ${request.method} ${request.url} failed: ${message}${retried}`, request, attempts);
    this.code = code;
  }

  override get transient(): boolean {
    return true;
  }
}

/** A 2xx response whose body lacks a field the operator relies on, or has it with the wrong type. */
export class IronicContractError extends IronicError {
  readonly kind = 'contract';
  /** Path of the offending field, e.g. nodes[3].provision_state. */
  readonly field: string;

  constructor(field: string, problem: string, request: IronicRequestInfo) {
    super(`Unexpected Ironic response to ${request.method} ${request.route}: field ${field}: ${problem}`, request);
    this.field = field;
  }
}

const NODE_LOCKED = /is locked by host|NodeLocked/i;

export function isNodeLockedMessage(faultstring: string): boolean {
  return NODE_LOCKED.test(faultstring);
}

/** Whether an error from this client is worth retrying later. */
export function isTransientIronicError(error: unknown): boolean {
  return error instanceof IronicError && error.transient;
}
