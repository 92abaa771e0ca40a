import type { BareMetalHost } from '../../api/baremetalhost.ts';
import type { BMCAccess } from '../../bmc/index.ts';

/** What every rule may look at: the host and, when its address parses, how its BMC is driven. */
export interface HostUnderValidation {
  host: BareMetalHost;
  access: BMCAccess | undefined;
  inspectionDisabled: boolean;
}

export interface HostValidationOptions {
  /** The operator's --allow-fake-hardware: accept the test-only fake-hardware:// scheme. */
  allowFakeHardware: boolean;
}
