/** Which BMO credentials error this is; decides metrics and whether to retry. */
export type CredentialsErrorKind = 'empty-secret-reference' | 'secret-not-found' | 'empty-address' | 'invalid-credentials';

/** BMO publishes every credentials error as an event with this reason. */
export const CREDENTIALS_EVENT_REASON = 'BMCCredentialError';

/** BMO retries a missing Secret after `hostErrorRetryDelay`; other errors wait for a spec change. */
export const MISSING_SECRET_RETRY_MS = 10_000;

// BMO's Go error types prefix their message; the prefixed text is what lands in
// `status.errorMessage` and the event, so `message` carries it and `detail` the bare text.
const PREFIXES: Record<CredentialsErrorKind, string> = {
  'empty-secret-reference': 'No BMC CredentialsName defined ',
  'secret-not-found': "BMC CredentialsName secret doesn't exist ",
  'empty-address': 'Empty BMC address ',
  'invalid-credentials': 'Validation error with BMC credentials: ',
};

/** A registration error about BMC credentials. Never carries secret values. */
export class CredentialsError extends Error {
  readonly kind: CredentialsErrorKind;
  /** The message without BMO's type prefix, e.g. "The BMC secret reference is empty". */
  readonly detail: string;
  /** Set for errors BMO requeues on; the others are fixed by editing the host or Secret. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: CredentialsErrorKind, detail: string) {
    super(PREFIXES[kind] + detail);
    this.name = 'CredentialsError';
    this.kind = kind;
    this.detail = detail;
    this.retryAfterMs = kind === 'secret-not-found' ? MISSING_SECRET_RETRY_MS : undefined;
  }
}
