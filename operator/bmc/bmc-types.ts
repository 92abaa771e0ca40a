import type { AccessOptions, BMCAccess } from './bmc-access.ts';
import { FAKE_HARDWARE_SCHEME, fakeHardwareAccess } from './fake-hardware-access.ts';
import { ipmiAccess } from './ipmi-access.ts';
import type { ParsedBMCAddress } from './parse-bmc-address.ts';
import type { RedfishFlavourName } from './redfish-access.ts';
import { redfishAccess } from './redfish-access.ts';

type AccessFactory = (parsed: ParsedBMCAddress, options: AccessOptions) => BMCAccess;

const redfishFlavour =
  (flavour: RedfishFlavourName): AccessFactory =>
  (parsed, options) =>
    redfishAccess(parsed, { ...options, flavour });

/** BMC types and whether they also register `<name>+http` / `<name>+https`. */
const BMC_TYPES: ReadonlyArray<{ name: string; factory: AccessFactory; transports: boolean }> = [
  { name: 'ipmi', factory: ipmiAccess, transports: false },
  { name: 'libvirt', factory: ipmiAccess, transports: false },
  { name: 'redfish', factory: redfishFlavour('redfish'), transports: true },
  // iLO 5 is driven through plain Redfish since the ilo5 driver was dropped.
  { name: 'ilo5-redfish', factory: redfishFlavour('redfish'), transports: true },
  { name: 'idrac-redfish', factory: redfishFlavour('idrac-redfish'), transports: true },
  { name: 'redfish-virtualmedia', factory: redfishFlavour('redfish-virtualmedia'), transports: true },
  { name: 'ilo5-virtualmedia', factory: redfishFlavour('redfish-virtualmedia'), transports: true },
  { name: 'redfish-uefihttp', factory: redfishFlavour('redfish-uefihttp'), transports: true },
  { name: 'idrac-virtualmedia', factory: redfishFlavour('idrac-virtualmedia'), transports: true },
];

const FACTORIES: ReadonlyMap<string, AccessFactory> = new Map(
  BMC_TYPES.flatMap(({ name, factory, transports }) => {
    const names = transports ? [name, `${name}+http`, `${name}+https`] : [name];
    return names.map((scheme) => [scheme, factory] as const);
  }),
);

/** Every address scheme BMO understands, e.g. for webhook messages and docs. */
export const SUPPORTED_BMC_SCHEMES: readonly string[] = [...FACTORIES.keys()];

/** Test hooks: parsed so they can be refused by name, never listed as supported (see fake-hardware-access.ts). */
const TEST_ONLY_FACTORIES: ReadonlyMap<string, AccessFactory> = new Map([[FAKE_HARDWARE_SCHEME, fakeHardwareAccess]]);

export function accessFactoryFor(scheme: string): AccessFactory | undefined {
  return FACTORIES.get(scheme) ?? TEST_ONLY_FACTORIES.get(scheme);
}
