import { bareMetalHostSchema } from '../../api/baremetalhost.ts';
import type { BareMetalHost, BareMetalHostInput } from '../../api/baremetalhost.ts';
import { validateHost } from './validate-host.ts';

/** A parsed host for rule tests: a valid Redfish host unless the overrides say otherwise. */
export function testHost(overrides: {
  name?: string;
  annotations?: Record<string, string>;
  spec?: Partial<BareMetalHostInput['spec']>;
  status?: BareMetalHostInput['status'];
} = {}): BareMetalHost {
  return bareMetalHostSchema.parse({
    metadata: { name: overrides.name ?? 'host-0', namespace: 'hosts', ...(overrides.annotations ? { annotations: overrides.annotations } : {}) },
    spec: { online: true, bmc: { address: 'redfish://127.0.0.1:8000/redfish/v1/Systems/1', credentialsName: 'bmc' }, ...overrides.spec },
    ...(overrides.status ? { status: overrides.status } : {}),
  });
}

/** The messages validateHost gives a host, for rule tests. */
export function messagesFor(host: BareMetalHost, options: { allowFakeHardware?: boolean } = {}): string[] {
  return validateHost(host, { allowFakeHardware: options.allowFakeHardware ?? false }).map((violation) => violation.message);
}
