import type { StackEnv } from '../stack/state.ts';

export interface SampleHostsOptions {
  env: StackEnv;
  namespace: string;
  /** Give every host an image (and userData) so it goes on to provisioned. */
  provision: boolean;
}

/**
 * A BMC credentials Secret and a BareMetalHost per emulated system, as a Metal3
 * user would write them, pointed at the local Redfish emulator on 127.0.0.1.
 */
export function sampleHostObjects(options: SampleHostsOptions): Record<string, unknown>[] {
  const { env, namespace } = options;
  const credentials = env.bmcCredentials ?? { username: 'admin', password: 'password' };
  const image = env.images[0];
  const objects: Record<string, unknown>[] = [];
  if (options.provision) {
    objects.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'sample-user-data', namespace },
      type: 'Opaque',
      stringData: { userData: '#cloud-config\nhostname: sample\n' },
    });
  }
  env.systems.forEach((system, index) => {
    const name = `host-${index + 1}`;
    objects.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `${name}-bmc-secret`, namespace },
      type: 'Opaque',
      stringData: { username: credentials.username, password: credentials.password },
    });
    objects.push({
      apiVersion: 'metal3.io/v1alpha1',
      kind: 'BareMetalHost',
      metadata: { name, namespace },
      spec: {
        online: true,
        bootMACAddress: system.macs[0],
        bmc: { address: system.redfishAddress, credentialsName: `${name}-bmc-secret` },
        ...(options.provision && image
          ? {
              image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' },
              userData: { name: 'sample-user-data', namespace },
            }
          : {}),
      },
    });
  });
  return objects;
}
