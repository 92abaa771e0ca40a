/** Why a BMC address could not be turned into access details. */
export type BMCAddressErrorReason = 'missing-address' | 'invalid-address' | 'unknown-type';

/**
 * The only error BMC address parsing produces. Messages match BMO's so users see the same
 * `status.errorMessage`; all three are terminal (fixing the BMH spec triggers a new reconcile).
 */
export class BMCAddressError extends Error {
  readonly reason: BMCAddressErrorReason;

  constructor(reason: BMCAddressErrorReason, message: string) {
    super(message);
    this.name = 'BMCAddressError';
    this.reason = reason;
  }
}

export function missingAddressError(): BMCAddressError {
  return new BMCAddressError('missing-address', 'missing BMC address');
}

export function invalidAddressError(detail: string): BMCAddressError {
  return new BMCAddressError('invalid-address', `failed to parse BMC address information: ${detail}`);
}

export function unknownTypeError(options: { bmcType: string; address: string }): BMCAddressError {
  return new BMCAddressError('unknown-type', `Unknown BMC type '${options.bmcType}' for address ${options.address}`);
}
