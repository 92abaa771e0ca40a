import type { LldpTlv } from './inventory-types.ts';

// IEEE 802.1AB TLV types and subtypes Ironic's parse-lldp and local-link-connection hooks read.
const CHASSIS_ID_TLV = 1;
const PORT_ID_TLV = 2;
const SYSTEM_NAME_TLV = 5;
const CHASSIS_ID_SUBTYPE_MAC = 4;
const PORT_ID_SUBTYPE_INTERFACE_NAME = 5;

export interface SwitchPort {
  switchId: string;
  portId: string;
  switchSystemName?: string | undefined;
}

/** The raw TLVs IPA would have captured from the switch's LLDP frames, hex-encoded as IPA sends them. */
export function lldpTlvs(port: SwitchPort): LldpTlv[] {
  const mac = Buffer.from(port.switchId.split(':').map((octet) => Number.parseInt(octet, 16)));
  const tlvs: LldpTlv[] = [
    [CHASSIS_ID_TLV, Buffer.concat([Buffer.from([CHASSIS_ID_SUBTYPE_MAC]), mac]).toString('hex')],
    [
      PORT_ID_TLV,
      Buffer.concat([Buffer.from([PORT_ID_SUBTYPE_INTERFACE_NAME]), Buffer.from(port.portId, 'utf8')]).toString('hex'),
    ],
  ];
  if (port.switchSystemName !== undefined) {
    tlvs.push([SYSTEM_NAME_TLV, Buffer.from(port.switchSystemName, 'utf8').toString('hex')]);
  }
  return tlvs;
}
