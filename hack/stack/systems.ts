/** One emulated server: a sushy-tools fake Redfish system played by the agent simulator. */
export interface EmulatedSystem {
  uuid: string;
  name: string;
  /** The first MAC is the boot (provisioning) NIC. */
  macs: string[];
}

/** Deterministic systems, so a stack brought up twice describes the same hardware. */
export function emulatedSystems(count: number): EmulatedSystem[] {
  return Array.from({ length: count }, (_, index) => {
    const n = index + 1;
    const hex = n.toString(16).padStart(12, '0');
    const byte = (value: number) => (value & 0xff).toString(16).padStart(2, '0');
    return {
      uuid: `5eb0a3c0-7a1d-4c55-9b1e-${hex}`,
      name: `bmc-host-${n}`,
      macs: [`00:5a:91:${byte(n >> 8)}:${byte(n)}:01`, `00:5a:91:${byte(n >> 8)}:${byte(n)}:02`],
    };
  });
}
