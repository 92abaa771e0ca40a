import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const readiness = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('http'), url: z.string() }),
  z.object({ kind: z.literal('kube'), kubectl: z.string(), kubeconfig: z.string() }),
  // Alive is all we can check without speaking its protocol (IPMI over UDP).
  z.object({ kind: z.literal('process') }),
]);

const componentRecord = z.object({
  name: z.string(),
  pid: z.number().int(),
  logPath: z.string(),
  /** How to start it again (restart tests, crash recovery). */
  spec: z.object({
    name: z.string(),
    command: z.string(),
    args: z.array(z.string()),
    env: z.record(z.string(), z.string().optional()).optional(),
    cwd: z.string().optional(),
    logPath: z.string(),
  }),
  readiness,
});
export type ComponentRecord = z.infer<typeof componentRecord>;

const systemRecord = z.object({
  uuid: z.string(),
  name: z.string(),
  macs: z.array(z.string()),
  /** BareMetalHost `spec.bmc.address` for this system over Redfish with network boot. */
  redfishAddress: z.string(),
  /** Base URL of the Redfish emulator serving this system: `sushyUrl`, or `isolatedBmc.url` for those servers. */
  bmcUrl: z.string(),
});

const credentials = z.object({ username: z.string(), password: z.string() });

export const stackEnvSchema = z.object({
  stateDir: z.string(),
  kubeconfig: z.string(),
  kubectl: z.string(),
  /** The stack's CA (certificate and key files): signs loopback serving certificates, e.g. for an Ironic over TLS. */
  ca: z.object({ cert: z.string(), key: z.string() }),
  apiServerUrl: z.string(),
  etcdUrl: z.string(),
  ironicUrl: z.string(),
  /** Set when Ironic runs with http_basic; the directory holds `username` and `password` files as BMO reads them. */
  ironicAuth: credentials.extend({ directory: z.string() }).optional(),
  ironicVenv: z.string(),
  baremetal: z.string(),
  sushyUrl: z.string(),
  /**
   * A second Redfish emulator serving only `systems` (indices into `systems`), run as the stack
   * component `component`: a test stops it to take those servers' BMCs away and nobody else's.
   */
  isolatedBmc: z.object({ component: z.string(), url: z.string(), systems: z.array(z.number().int()) }).optional(),
  /**
   * An IPMI BMC of its own (stack component `component`, at `address`) in front of server
   * `system`'s Redfish system: a test stops it to take that server's IPMI away and nobody else's.
   */
  isolatedIpmiBmc: z.object({ component: z.string(), address: z.string(), system: z.number().int() }).optional(),
  bmcCredentials: credentials.optional(),
  agentSimulatorUrl: z.string(),
  artifactsUrl: z.string(),
  images: z.array(z.object({ url: z.string(), sha256: z.string(), md5: z.string(), sizeBytes: z.number() })),
  /**
   * The artifacts server's OCI registry (basic auth): `image` is images[0] as an OCI artifact,
   * `requestsUrl` lists what the registry answered and to whom. Absent in stacks from before it.
   */
  ociRegistry: z.object({ image: z.string(), requestsUrl: z.string(), credentials }).optional(),
  systems: z.array(systemRecord),
  /** An IPMI BMC on loopback UDP (pyghmi), with the boot MAC of the server it pretends to manage. */
  ipmiBmc: z.object({ address: z.string(), bootMacAddress: z.string(), credentials }),
  /**
   * A second API server playing the workload cluster (Nodes live there, never in the management
   * cluster). The kubeconfig carries its certificates inline, as a `<cluster>-kubeconfig` Secret needs.
   */
  workload: z.object({ kubeconfig: z.string(), apiServerUrl: z.string() }),
});
export type StackEnv = z.infer<typeof stackEnvSchema>;

const stateSchema = z.object({ components: z.array(componentRecord), env: stackEnvSchema });
export type StackState = z.infer<typeof stateSchema>;

export const stateFile = (stateDir: string) => join(stateDir, 'state.json');
export const envJsonFile = (stateDir: string) => join(stateDir, 'env.json');
export const envShellFile = (stateDir: string) => join(stateDir, 'env');

export function readState(stateDir: string): StackState | undefined {
  const path = stateFile(stateDir);
  if (!existsSync(path)) return undefined;
  return stateSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/**
 * Only the recorded processes, whatever the recorded env looks like: a stack written by an
 * older version of this code (another env schema) can still be stopped.
 */
export function readStateComponents(stateDir: string): ComponentRecord[] | undefined {
  const path = stateFile(stateDir);
  if (!existsSync(path)) return undefined;
  return z.object({ components: z.array(componentRecord) }).parse(JSON.parse(readFileSync(path, 'utf8'))).components;
}

export function writeState(stateDir: string, state: StackState): void {
  writeFileSync(stateFile(stateDir), `${JSON.stringify(state, null, 2)}\n`);
}

/** Components written so far, so a failed `up` can still be torn down. */
export function writePartialComponents(stateDir: string, components: ComponentRecord[]): void {
  writeFileSync(join(stateDir, 'components.json'), `${JSON.stringify(components, null, 2)}\n`);
}

export function readPartialComponents(stateDir: string): ComponentRecord[] {
  const path = join(stateDir, 'components.json');
  if (!existsSync(path)) return [];
  return z.array(componentRecord).parse(JSON.parse(readFileSync(path, 'utf8')));
}
