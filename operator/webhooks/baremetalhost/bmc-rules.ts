import { bmcAccessFor, bootMACProblem, parseBMCAddress, testOnlyBMCProblem } from '../../bmc/index.ts';
import type { BMCAccess } from '../../bmc/index.ts';
import type { BareMetalHost } from '../../api/baremetalhost.ts';
import type { HostUnderValidation, HostValidationOptions } from './validation-context.ts';
import type { Violation } from '../../runtime/index.ts';

const ADDRESS = 'spec.bmc.address';

/** The BMC's access details, or the violation BMO reports for an address it cannot use. */
export function bmcAccessOf(host: BareMetalHost, options: HostValidationOptions): { access?: BMCAccess; violations: Violation[] } {
  const address = host.spec.bmc?.address ?? '';
  if (address === '') return { violations: [] };
  const result = bmcAccessFor({ address, disableCertificateVerification: host.spec.bmc?.disableCertificateVerification ?? false });
  if (!result.ok) return { violations: [{ field: ADDRESS, message: result.error.message }] };
  const testOnly = testOnlyBMCProblem({ access: result.access, allowFakeHardware: options.allowFakeHardware });
  if (testOnly !== undefined) return { violations: [{ field: ADDRESS, message: testOnly }] };
  return { access: result.access, violations: [] };
}

/** BMO checks the address's host name on its own as well; the aggregate shows a repeat once. */
export function bmcHostnameViolations({ host }: HostUnderValidation): Violation[] {
  const address = host.spec.bmc?.address ?? '';
  if (address === '') return [];
  const parsed = parseBMCAddress(address);
  return parsed.ok ? [] : [{ field: ADDRESS, message: parsed.error.message }];
}

// Go's net.ParseMAC: 6, 8 or 20 bytes, as pairs split by ':' or '-', or quads split by '.'.
const MAC_FORMS = [
  /^[0-9a-f]{2}([:-])[0-9a-f]{2}(\1[0-9a-f]{2}){4}((\1[0-9a-f]{2}){2}((\1[0-9a-f]{2}){12})?)?$/i,
  /^[0-9a-f]{4}(\.[0-9a-f]{4}){2}((\.[0-9a-f]{4})((\.[0-9a-f]{4}){6})?)?$/i,
];

export function isGoMACAddress(text: string): boolean {
  return MAC_FORMS.some((form) => form.test(text));
}

/** What the BMC driver must support for this spec: RAID, boot MAC discovery, secure boot. */
export function bmcDriverViolations({ host, access, inspectionDisabled }: HostUnderValidation): Violation[] {
  // As in BMO, without a usable BMC address none of these is checked (the address error says enough).
  if (access === undefined) return [];
  const violations: Violation[] = [];
  const { spec } = host;
  const bootMAC = spec.bootMACAddress ?? '';
  if ((spec.raid?.hardwareRAIDVolumes?.length ?? 0) > 0 && access.interfaces.raid === 'no-raid') {
    violations.push({ field: 'spec.raid.hardwareRAIDVolumes', message: `BMC driver ${access.type} does not support configuring RAID` });
  }
  const missingMAC = bootMACProblem({ access, inspectionDisabled, bootMACAddress: bootMAC });
  if (missingMAC !== undefined) violations.push({ field: 'spec.bootMACAddress', message: missingMAC });
  if (bootMAC !== '' && !isGoMACAddress(bootMAC)) {
    violations.push({ field: 'spec.bootMACAddress', message: `address ${bootMAC}: invalid MAC address` });
  }
  if (spec.bootMode === 'UEFISecureBoot' && !access.supportsSecureBoot) {
    violations.push({ field: 'spec.bootMode', message: `BMC driver ${access.type} does not support secure boot` });
  }
  return violations;
}
