// The N hosts of a run: the same hardware for the floor and the operator (Redfish: the same
// emulated systems, driven one after the other), named and addressed per mode.
import type { StackEnv } from '../../hack/stack/state.ts';
import type { BenchMode } from './report/types.ts';

export interface BenchHost {
  index: number;
  /** BareMetalHost name; the floor's Ironic node is `<floor prefix>-<name>`. */
  name: string;
  bootMac: string;
  /** BareMetalHost spec.bmc.address. */
  bmcAddress: string;
  /** The sushy system the host is (redfish mode only). */
  redfishSystemId?: string;
}

/** Locally administered MACs 02:be:<role>:<hi>:<lo>:01 for hosts without an emulated system. */
export function syntheticMac(role: number, index: number): string {
  const byte = (value: number) => (value & 0xff).toString(16).padStart(2, '0');
  return `02:be:${byte(role)}:${byte(index >> 8)}:${byte(index)}:01`;
}

export function benchHosts(options: { mode: BenchMode; count: number; env: StackEnv; role: 'floor' | 'operator' }): BenchHost[] {
  const { mode, count, env } = options;
  if (mode === 'redfish' && env.systems.length < count) {
    throw new Error(`the stack emulates ${env.systems.length} systems; ${count} hosts need as many`);
  }
  return Array.from({ length: count }, (_, index) => {
    const name = `host-${index + 1}`;
    if (mode === 'redfish') {
      const system = env.systems[index]!;
      return { index, name, bootMac: system.macs[0]!, bmcAddress: system.redfishAddress, redfishSystemId: `/redfish/v1/Systems/${system.uuid}` };
    }
    const bootMac = syntheticMac(options.role === 'floor' ? 1 : 2, index + 1);
    // The fixture provisioner never contacts the BMC; port 9 (discard) would refuse anyway.
    const bmcAddress = mode === 'fake-hardware' ? `fake-hardware://bench-${name}` : `redfish+http://127.0.0.1:9/redfish/v1/Systems/bench-${name}`;
    return { index, name, bootMac, bmcAddress };
  });
}
