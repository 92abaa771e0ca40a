export type { BMCCredentials, CredentialsHost, CredentialsResult, SecretData, ValidateCredentialsOptions } from './bmc-credentials.ts';
export { bmcSecretKey, validateBMCCredentials } from './bmc-credentials.ts';
export type { CredentialsErrorKind } from './credentials-error.ts';
export { CREDENTIALS_EVENT_REASON, CredentialsError, MISSING_SECRET_RETRY_MS } from './credentials-error.ts';
