/** BMC login, already validated and trimmed (see operator/credentials). */
export interface BMCCredentials {
  username: string;
  password: string;
}

/** Ironic `driver_info` entries for a node; values are sent as-is (ports stay strings, as BMO sends them). */
export type DriverInfo = Record<string, string | boolean>;

/** Ironic hardware interfaces a BMC type asks for; '' leaves Ironic's default. */
export interface IronicInterfaces {
  bios: string;
  boot: string;
  firmware: string;
  /** Out-of-band inspect interface for `inspectionMode: fast`; '' when the BMC has none. */
  inspect: string;
  management: string;
  power: string;
  raid: string;
  vendor: string;
  /** TEST ONLY (fake-hardware): Ironic `deploy_interface` at registration; absent leaves BMO's choice. */
  deploy?: string;
}

/** How Ironic reaches one BMC: BMO's `AccessDetails` as plain data. */
export interface BMCAccess {
  /** BMC type as written in the address scheme, e.g. `idrac-virtualmedia+https`. */
  type: string;
  /** Ironic hardware type (driver), e.g. `redfish`. */
  driver: string;
  interfaces: IronicInterfaces;
  /** The boot MAC cannot be discovered, so `bootMACAddress` is mandatory. */
  needsMac: boolean;
  supportsSecureBoot: boolean;
  /** Virtual media: a preprovisioning image may be an ISO. */
  supportsIsoPreprovisioningImage: boolean;
  /** Boots over the provisioning network (DHCP/PXE). */
  requiresProvisioningNetwork: boolean;
  disableCertificateVerification: boolean;
  /** A test hook BMO does not have (fake-hardware): refused unless the operator allows it. */
  testOnly?: boolean;
  /** Ironic `driver_info` with the access keys filled in; callers add deploy images etc. */
  driverInfo(credentials: BMCCredentials): DriverInfo;
}

export interface AccessOptions {
  disableCertificateVerification: boolean;
}
