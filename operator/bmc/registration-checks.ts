import type { BMCAccess } from './bmc-access.ts';

// BMO's pre-registration checks (`Register` in pkg/provisioner/ironic/register.go). Each
// returns the exact message BMO records as a registration error, or undefined when fine.

export interface DriverCompatibilityOptions {
  access: BMCAccess;
  inspectionMode?: string;
  bootMode?: string;
  provisioningNetworkDisabled: boolean;
  disablePowerOff: boolean;
  /** Ironic API >= 1.95. */
  ironicSupportsDisablePowerOff: boolean;
}

export function driverCompatibilityProblem(options: DriverCompatibilityOptions): string | undefined {
  const { access } = options;
  if (options.inspectionMode === 'fast' && access.interfaces.inspect === '') {
    return `BMC driver ${access.type} does not support fast (out-of-band) inspection`;
  }
  if (options.bootMode === 'UEFISecureBoot' && !access.supportsSecureBoot) {
    return `BMC driver ${access.type} does not support secure boot`;
  }
  if (access.requiresProvisioningNetwork && options.provisioningNetworkDisabled) {
    return `BMC driver ${access.type} requires a provisioning network`;
  }
  if (options.disablePowerOff && !options.ironicSupportsDisablePowerOff) {
    return 'current ironic version does not support DisablePowerOff, refusing to manage node';
  }
  return undefined;
}

/** Without inspection (or with VirtualBMC) nothing discovers the boot MAC, so it must be given. */
export function bootMACProblem(options: { access: BMCAccess; inspectionDisabled: boolean; bootMACAddress?: string }): string | undefined {
  const needed = options.access.needsMac || options.inspectionDisabled;
  if (needed && !options.bootMACAddress) return `BMC driver ${options.access.type} requires a BootMACAddress value`;
  return undefined;
}

/** Ironic `inspect_interface`: the BMC's out-of-band one for `fast`, otherwise in-band `agent`. */
export function inspectInterfaceFor(options: { access: BMCAccess; inspectionMode?: string }): string {
  if (options.inspectionMode === 'fast' && options.access.interfaces.inspect !== '') return options.access.interfaces.inspect;
  return 'agent';
}
