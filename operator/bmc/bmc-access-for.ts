import type { BMCAccess } from './bmc-access.ts';
import type { BMCAddressError } from './bmc-address-error.ts';
import { missingAddressError, unknownTypeError } from './bmc-address-error.ts';
import { accessFactoryFor } from './bmc-types.ts';
import { parseBMCAddress } from './parse-bmc-address.ts';

export interface BMCAccessOptions {
  address: string;
  disableCertificateVerification?: boolean;
}

export type BMCAccessResult = { ok: true; access: BMCAccess } | { ok: false; error: BMCAddressError };

/** BMO's `NewAccessDetails`: how Ironic should drive the BMC at `address`. Never throws. */
export function bmcAccessFor(options: BMCAccessOptions): BMCAccessResult {
  if (options.address === '') return { ok: false, error: missingAddressError() };
  const parsed = parseBMCAddress(options.address);
  if (!parsed.ok) return parsed;
  const factory = accessFactoryFor(parsed.parsed.scheme);
  if (factory === undefined) {
    return { ok: false, error: unknownTypeError({ bmcType: parsed.parsed.scheme, address: options.address }) };
  }
  const access = factory(parsed.parsed, { disableCertificateVerification: options.disableCertificateVerification ?? false });
  return { ok: true, access };
}
