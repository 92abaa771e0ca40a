import type { LLDP, VLAN } from './hardware-details.ts';
import { omitEmpty } from './omit-empty.ts';

type ParsedLLDP = Record<string, unknown>;

function nonEmptyString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function integerOrZero(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) ? value : 0;
}

/**
 * Switch identity from Ironic's parsed LLDP; undefined when nothing usable was received.
 * Fields of the wrong type are ignored rather than failing inspection.
 */
export function lldpDetails(lldp: ParsedLLDP | undefined): LLDP | undefined {
  if (lldp === undefined) return undefined;
  const details = omitEmpty<LLDP>({
    switchID: nonEmptyString(lldp['switch_chassis_id']),
    portID: nonEmptyString(lldp['switch_port_id']),
    switchSystemName: nonEmptyString(lldp['switch_system_name']),
  });
  return Object.keys(details).length === 0 ? undefined : details;
}

/**
 * Tagged VLANs and the untagged VLAN id. An entry with a wrong-typed id or name keeps its other
 * field; a list containing a non-object is unusable and dropped, as in BMO's unit tests.
 */
export function vlanDetails(lldp: ParsedLLDP | undefined): { vlans: VLAN[]; vlanId: number } {
  if (lldp === undefined) return { vlans: [], vlanId: 0 };
  const listed = lldp['switch_port_vlans'];
  const entries = Array.isArray(listed) && listed.every(isPlainObject) ? listed : [];
  const vlans = entries.map((entry) => omitEmpty<VLAN>({ id: integerOrZero(entry['id']), name: nonEmptyString(entry['name']) }));
  return { vlans, vlanId: integerOrZero(lldp['switch_port_untagged_vlan_id']) };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
