// What a user (or CAPM3) writes for each host: a BMC credentials Secret and a BareMetalHost,
// created powered off like a host waiting in the pool; then the image, userData and online: true
// a consumer sets to provision it, and their removal to give it back.
import type { StackEnv } from '../../../hack/stack/state.ts';
import type { BenchHost } from '../bench-hosts.ts';

export const USER_DATA_SECRET = 'bench-user-data';

export function userDataSecret(namespace: string): Record<string, unknown> {
  return {
    metadata: { name: USER_DATA_SECRET, namespace },
    type: 'Opaque',
    stringData: { userData: '#cloud-config\nhostname: bench\n' },
  };
}

export function bmcSecret(options: { env: StackEnv; namespace: string; host: BenchHost }): Record<string, unknown> {
  const credentials = options.env.bmcCredentials ?? { username: 'admin', password: 'password' };
  return {
    metadata: { name: `${options.host.name}-bmc`, namespace: options.namespace },
    type: 'Opaque',
    stringData: { username: credentials.username, password: credentials.password },
  };
}

export function bareMetalHost(options: { namespace: string; host: BenchHost }): Record<string, unknown> {
  const { host } = options;
  return {
    metadata: { name: host.name, namespace: options.namespace },
    spec: {
      online: false,
      bootMACAddress: host.bootMac,
      bmc: { address: host.bmcAddress, credentialsName: `${host.name}-bmc` },
    },
  };
}

/** Merge patch that claims the host: image, userData, power on. */
export function provisionPatch(options: { env: StackEnv; namespace: string }): Record<string, unknown> {
  const image = options.env.images[0];
  if (!image) throw new Error('the stack serves no test image');
  return {
    spec: {
      online: true,
      image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' },
      userData: { name: USER_DATA_SECRET, namespace: options.namespace },
    },
  };
}

/** Merge patch that releases it: no image, no userData, power off. */
export const deprovisionPatch: Record<string, unknown> = { spec: { online: false, image: null, userData: null } };
