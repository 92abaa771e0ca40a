import type { AccessOptions, BMCAccess, BMCCredentials, DriverInfo, IronicInterfaces } from './bmc-access.ts';
import type { ParsedBMCAddress } from './parse-bmc-address.ts';

/** What distinguishes the Redfish-based BMC types from one another. */
interface RedfishFlavour {
  driver: 'redfish' | 'idrac';
  interfaces: IronicInterfaces;
  virtualMedia: boolean;
  /** redfish-uefihttp always sends `redfish_system_id`, even when empty. */
  alwaysSendSystemId: boolean;
}

const REDFISH_INTERFACES = (boot: string): IronicInterfaces => ({
  bios: '',
  boot,
  firmware: 'redfish',
  inspect: 'redfish',
  management: '',
  power: '',
  raid: 'redfish',
  vendor: '',
});

// The idrac hardware type defaults to WS-Man implementations, so each one is overridden.
// Inspection stays `redfish` because ironic-image does not enable `idrac-redfish` inspection.
const IDRAC_INTERFACES = (boot: string): IronicInterfaces => ({
  bios: 'idrac-redfish',
  boot,
  firmware: 'redfish',
  inspect: 'redfish',
  management: 'idrac-redfish',
  power: 'idrac-redfish',
  raid: 'idrac-redfish',
  vendor: 'idrac-redfish',
});

export type RedfishFlavourName = 'redfish' | 'redfish-virtualmedia' | 'redfish-uefihttp' | 'idrac-redfish' | 'idrac-virtualmedia';

export const REDFISH_FLAVOURS: Record<RedfishFlavourName, RedfishFlavour> = {
  redfish: { driver: 'redfish', interfaces: REDFISH_INTERFACES('ipxe'), virtualMedia: false, alwaysSendSystemId: false },
  'redfish-virtualmedia': {
    driver: 'redfish',
    interfaces: REDFISH_INTERFACES('redfish-virtual-media'),
    virtualMedia: true,
    alwaysSendSystemId: false,
  },
  'redfish-uefihttp': {
    driver: 'redfish',
    interfaces: REDFISH_INTERFACES('redfish-https'),
    virtualMedia: true,
    alwaysSendSystemId: true,
  },
  'idrac-redfish': { driver: 'idrac', interfaces: IDRAC_INTERFACES('ipxe'), virtualMedia: false, alwaysSendSystemId: false },
  'idrac-virtualmedia': {
    driver: 'idrac',
    interfaces: IDRAC_INTERFACES('idrac-redfish-virtual-media'),
    virtualMedia: true,
    alwaysSendSystemId: false,
  },
};

/** `redfish+http` talks plain HTTP; without a `+transport` suffix Redfish uses HTTPS. */
function redfishAddress(bmcType: string, host: string): string {
  const transport = bmcType.split('+')[1] ?? 'https';
  return `${transport}://${host}`;
}

/** The system path, unless it is empty or just the service root (Ironic then finds the system). */
function systemId(path: string, flavour: RedfishFlavour): string | undefined {
  if (flavour.alwaysSendSystemId) return path;
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' || trimmed === 'redfish/v1' ? undefined : path;
}

export function redfishAccess(parsed: ParsedBMCAddress, options: AccessOptions & { flavour: RedfishFlavourName }): BMCAccess {
  const flavour = REDFISH_FLAVOURS[options.flavour];
  return {
    type: parsed.scheme,
    driver: flavour.driver,
    interfaces: { ...flavour.interfaces },
    // Agent inspection reports MACs back to Ironic, so none is needed up front.
    needsMac: false,
    supportsSecureBoot: true,
    supportsIsoPreprovisioningImage: flavour.virtualMedia,
    requiresProvisioningNetwork: !flavour.virtualMedia,
    disableCertificateVerification: options.disableCertificateVerification,
    driverInfo(credentials: BMCCredentials): DriverInfo {
      const info: DriverInfo = {
        redfish_address: redfishAddress(parsed.scheme, parsed.host),
        redfish_username: credentials.username,
        redfish_password: credentials.password,
      };
      const system = systemId(parsed.path, flavour);
      if (system !== undefined) info['redfish_system_id'] = system;
      if (options.disableCertificateVerification) info['redfish_verify_ca'] = false;
      return info;
    },
  };
}
