// TEST ONLY. `fake-hardware://<name>` registers the host with Ironic's `fake-hardware` type:
// fake boot, power, management and deploy, so nothing is powered, booted or written and Ironic
// moves through its real states in milliseconds. BMO has no such scheme. The operator refuses it
// unless started with --allow-fake-hardware (ALLOW_FAKE_HARDWARE=true); the scale benchmark
// (test/bench) uses it. Inspection stays in-band (`agent`): whoever plays the ramdisk posts the
// inventory to Ironic's continue_inspection.
import type { AccessOptions, BMCAccess } from './bmc-access.ts';
import type { ParsedBMCAddress } from './parse-bmc-address.ts';

export const FAKE_HARDWARE_SCHEME = 'fake-hardware';

export function fakeHardwareAccess(parsed: ParsedBMCAddress, options: AccessOptions): BMCAccess {
  return {
    type: parsed.scheme,
    driver: 'fake-hardware',
    interfaces: { bios: '', boot: 'fake', firmware: '', inspect: '', management: 'fake', power: 'fake', raid: '', vendor: '', deploy: 'fake' },
    // Nothing boots that could report a MAC before inspection.
    needsMac: true,
    supportsSecureBoot: false,
    supportsIsoPreprovisioningImage: false,
    requiresProvisioningNetwork: false,
    disableCertificateVerification: options.disableCertificateVerification,
    testOnly: true,
    driverInfo: () => ({}),
  };
}

/** The registration error for a test-only BMC type the operator was not started to accept. */
export function testOnlyBMCProblem(options: { access: BMCAccess; allowFakeHardware: boolean }): string | undefined {
  if (!options.access.testOnly || options.allowFakeHardware) return undefined;
  return `BMC type ${options.access.type} is a test-only hook (Ironic fake-hardware); start the operator with --allow-fake-hardware to use it`;
}
