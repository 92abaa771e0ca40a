import type { SecureContextOptions, SecureVersion } from 'node:tls';

/** What a manager's TLS servers (webhooks, secure metrics) accept, from --tls-min-version and friends. */
export interface TlsPolicy {
  minVersion: SecureVersion;
  maxVersion: SecureVersion;
  /** OpenSSL's cipher list (--tls-cipher-suites, translated); Node's default when unset. */
  ciphers?: string;
  /** OpenSSL's key exchange groups (--tls-curve-preferences, translated); Node's default when unset. */
  ecdhCurve?: string;
}

/** The policy as Node's TLS options; none for Node's defaults. */
export function secureContextOptions(policy: TlsPolicy | undefined): SecureContextOptions {
  if (!policy) return {};
  const { minVersion, maxVersion, ciphers, ecdhCurve } = policy;
  return { minVersion, maxVersion, ...(ciphers ? { ciphers } : {}), ...(ecdhCurve ? { ecdhCurve } : {}) };
}
