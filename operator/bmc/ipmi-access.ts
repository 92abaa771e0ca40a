import type { AccessOptions, BMCAccess, BMCCredentials, DriverInfo } from './bmc-access.ts';
import { parseGoQuery } from './go-query.ts';
import type { ParsedBMCAddress } from './parse-bmc-address.ts';

const DEFAULT_IPMI_PORT = '623';
const DEFAULT_PRIVILEGE_LEVEL = 'ADMINISTRATOR';

/** `?privilegelevel=X`; any malformed query falls back to the default, as in BMO. */
function privilegeLevel(rawQuery: string): string {
  const query = parseGoQuery(rawQuery);
  if (query.malformed) return DEFAULT_PRIVILEGE_LEVEL;
  return query.values.get('privilegelevel')?.[0] ?? DEFAULT_PRIVILEGE_LEVEL;
}

/** `ipmi://` and `libvirt://` (VirtualBMC): the Ironic `ipmi` hardware type booting via iPXE. */
export function ipmiAccess(parsed: ParsedBMCAddress, options: AccessOptions): BMCAccess {
  const level = privilegeLevel(parsed.rawQuery);
  return {
    type: parsed.scheme,
    driver: 'ipmi',
    interfaces: { bios: '', boot: 'ipxe', firmware: '', inspect: '', management: '', power: '', raid: 'no-raid', vendor: '' },
    // VirtualBMC addresses are shared and the VM cannot report its MAC, so it must be given.
    needsMac: parsed.scheme === 'libvirt',
    supportsSecureBoot: false,
    supportsIsoPreprovisioningImage: false,
    requiresProvisioningNetwork: true,
    disableCertificateVerification: options.disableCertificateVerification,
    driverInfo(credentials: BMCCredentials): DriverInfo {
      const info: DriverInfo = {
        ipmi_port: parsed.port === '' ? DEFAULT_IPMI_PORT : parsed.port,
        ipmi_username: credentials.username,
        ipmi_password: credentials.password,
        ipmi_address: parsed.hostname,
        ipmi_priv_level: level,
      };
      if (options.disableCertificateVerification) info['ipmi_verify_ca'] = false;
      return info;
    },
  };
}
