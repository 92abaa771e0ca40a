import type { StackEnv } from '../stack/state.ts';

export interface HostEntry {
  name: string;
  system: StackEnv['systems'][number];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** Beside `online`, `bootMACAddress` and `bmc`. */
  spec?: Record<string, unknown>;
}

/** Per host, its BMC credentials Secret and a BareMetalHost on the emulated Redfish server, as a Metal3 user writes them. */
export function hostObjects(options: { env: StackEnv; namespace: string; hosts: readonly HostEntry[] }): Record<string, unknown>[] {
  const credentials = options.env.bmcCredentials ?? { username: 'admin', password: 'password' };
  return options.hosts.flatMap((host) => [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `${host.name}-bmc-secret`, namespace: options.namespace },
      type: 'Opaque',
      stringData: { username: credentials.username, password: credentials.password },
    },
    {
      apiVersion: 'metal3.io/v1alpha1',
      kind: 'BareMetalHost',
      metadata: { name: host.name, namespace: options.namespace, ...(host.labels ? { labels: host.labels } : {}),
        ...(host.annotations ? { annotations: host.annotations } : {}) },
      spec: {
        online: true,
        bootMACAddress: host.system.macs[0],
        bmc: { address: host.system.redfishAddress, credentialsName: `${host.name}-bmc-secret` },
        ...host.spec,
      },
    },
  ]);
}

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
  const spec = options.provision && image
    ? {
        image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' },
        userData: { name: 'sample-user-data', namespace },
      }
    : {};
  objects.push(...hostObjects({ env, namespace, hosts: env.systems.map((system, index) => ({ name: `host-${index + 1}`, system, spec })) }));
  return objects;
}
