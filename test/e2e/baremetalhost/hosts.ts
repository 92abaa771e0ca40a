import type { BootRecord, SystemRecords } from '../../../hack/agent-simulator/records.ts';
import type { Kubectl } from '../../support/kubectl.ts';
import { deleteNamespace } from '../../support/namespaces.ts';
import type { OperatorProcess } from '../../support/operator-process.ts';
import { releaseNodesNamed } from '../../support/release-systems.ts';
import type { StackEnv } from '../../support/stack-env.ts';
import { StopWaiting, waitFor } from '../../support/wait-for.ts';

/** The parts of a BareMetalHost these tests read. */
export interface Host {
  metadata: { name: string; uid: string; finalizers?: string[] };
  spec: { architecture?: string; image?: { url: string } };
  status?: {
    operationalStatus?: string;
    errorType?: string;
    errorMessage?: string;
    errorCount?: number;
    poweredOn?: boolean;
    triedCredentials?: { credentialsVersion?: string };
    provisioning?: { state?: string; ID?: string; image?: { url: string }; customDeploy?: { method: string } };
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    hardware?: {
      cpu?: { arch?: string; count?: number };
      ramMebibytes?: number;
      nics?: { mac?: string }[];
      storage?: { name?: string; sizeBytes?: number }[];
      systemVendor?: { manufacturer?: string };
      hostname?: string;
    };
  };
}

export async function getHost(kubectl: Kubectl, namespace: string, name: string): Promise<Host | undefined> {
  const result = await kubectl.run(['get', 'bmh', name, '-n', namespace, '-o', 'json']);
  return result.code === 0 ? (JSON.parse(result.stdout) as Host) : undefined;
}

export interface WaitForHostOptions {
  timeoutMs: number;
  /** Fail at once when the host records an error other than the one awaited. */
  failOnError?: boolean;
}

/** Waits until `accept` holds for the host; the failure message shows its last status. */
export async function waitForHost(
  kubectl: Kubectl,
  namespace: string,
  name: string,
  accept: (host: Host) => boolean,
  options: WaitForHostOptions,
): Promise<Host> {
  let last: Host | undefined;
  try {
    return await waitFor(
      async () => {
        last = await getHost(kubectl, namespace, name);
        if (!last) return undefined;
        if (options.failOnError && last.status?.errorType && !accept(last)) {
          throw new StopWaiting(`${name} recorded ${last.status.errorType}: ${last.status.errorMessage}`);
        }
        return accept(last) ? last : undefined;
      },
      { timeoutMs: options.timeoutMs, intervalMs: 1_000, what: `host ${name}` },
    );
  } catch (error) {
    const status = JSON.stringify(last?.status ?? null);
    throw new Error(`${error instanceof Error ? error.message : String(error)}; last status: ${status}`, { cause: error });
  }
}

export const inState = (state: string) => (host: Host) => host.status?.provisioning?.state === state;

// ---- Day-2 helpers: what the emulated hardware, Ironic and the operator say about a host. ----

/** The power state sushy-tools reports for a system (`On`/`Off`), read as a BMC client would. */
export async function sushyPowerState(
  env: { sushyUrl: string; bmcCredentials?: { username: string; password: string } | undefined },
  systemUuid: string,
): Promise<string> {
  const credentials = env.bmcCredentials;
  const headers: Record<string, string> = credentials
    ? { authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}` }
    : {};
  const response = await fetch(`${env.sushyUrl}/redfish/v1/Systems/${systemUuid}`, { headers });
  if (!response.ok) throw new Error(`sushy GET Systems/${systemUuid} -> ${response.status}`);
  return ((await response.json()) as { PowerState: string }).PowerState;
}

/** Waits until sushy-tools reports `state` for the system (its power changes land 1–11 s late). */
export async function waitForSushyPower(
  env: Parameters<typeof sushyPowerState>[0],
  systemUuid: string,
  state: 'On' | 'Off',
  timeoutMs: number,
): Promise<void> {
  let last = '';
  await waitFor(async () => {
    last = await sushyPowerState(env, systemUuid);
    return last === state ? true : undefined;
  }, { timeoutMs, intervalMs: 1_000, what: `system ${systemUuid} to be ${state} in sushy-tools` }).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}; last power state ${last}`, { cause: error });
  });
}

/** The sum of one metric's samples whose labels include all of `labels`, from a Prometheus text page. */
export function metricValue(page: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of page.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`));
    if (wanted) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** `reason: message` of every event about the named object, oldest first. */
export async function hostEvents(kubectl: Kubectl, namespace: string, name: string): Promise<string[]> {
  const out = await kubectl.ok(['get', 'events', '-n', namespace, '--field-selector', `involvedObject.name=${name}`,
    '--sort-by=.metadata.creationTimestamp', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
  return out.split('\n').filter(Boolean);
}

/**
 * Clears what a BareMetalHost test left in its namespace once its operator has stopped (hosts
 * HardwareData and PreprovisioningImages would keep their finalizers for ever), then the namespace.
 */
export async function deleteHostNamespace(kubectl: Kubectl, namespace: string): Promise<void> {
  for (const kind of ['bmh', 'hardwaredata', 'preprovisioningimage', 'secret']) {
    const names = (await kubectl.ok(['get', kind, '-n', namespace, '-o', 'name'])).split('\n').filter(Boolean);
    for (const name of names) await kubectl.run(['patch', name, '-n', namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  }
  await kubectl.run(['delete', 'bmh,hardwaredata,preprovisioningimage,secret', '--all', '-n', namespace, '--wait=false']);
  await deleteNamespace(kubectl, namespace);
}

/**
 * How many times each `reason: message` was recorded about the named object, counting repeats
 * that the event recorder folded into an Event's series (events.k8s.io/v1 `series.count`).
 */
export async function hostEventCounts(kubectl: Kubectl, namespace: string, name: string): Promise<Map<string, number>> {
  const list = await kubectl.json<{ items: { regarding?: { name?: string }; reason?: string; note?: string; series?: { count?: number } }[] }>(
    ['get', 'events.v1.events.k8s.io', '-n', namespace]);
  const counts = new Map<string, number>();
  for (const event of list.items) {
    if (event.regarding?.name !== name) continue;
    const key = `${event.reason}: ${event.note}`;
    counts.set(key, (counts.get(key) ?? 0) + (event.series?.count ?? 1));
  }
  return counts;
}

/**
 * A test file's clean-up: the operator deletes the file's hosts as a user would (powering them
 * off, removing their Ironic nodes), then it stops and whatever it could not delete is cleared.
 */
export async function tearDownHostTest(options: { env: StackEnv; kubectl: Kubectl; namespace: string; operator: OperatorProcess | undefined }): Promise<void> {
  const { env, kubectl, namespace } = options;
  if (namespace) {
    await kubectl.run(['delete', 'bmh', '--all', '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await kubectl.run(['get', 'bmh', '-n', namespace, '-o', 'name'])).stdout.trim() ? undefined : true),
      { timeoutMs: 3 * 60_000, what: 'hosts to be deleted' }).catch(() => undefined);
  }
  await options.operator?.stop();
  if (!namespace) return;
  await releaseNodesNamed(env, `${namespace}~`);
  await deleteHostNamespace(kubectl, namespace);
}

/** Everything the agent simulator recorded for one emulated server (it keeps every run's records). */
export async function serverRecords(env: { agentSimulatorUrl: string }, uuid: string): Promise<SystemRecords> {
  return (await (await fetch(`${env.agentSimulatorUrl}/records/${uuid}`)).json()) as SystemRecords;
}

/**
 * Waits until the server's newest boot since `before` satisfies `accept`. Ironic ends a deploy
 * once it has asked the BMC for power on; the emulated server boots a moment later.
 */
export async function waitForBoot(
  env: { agentSimulatorUrl: string }, uuid: string,
  options: { before: SystemRecords; accept: (boot: BootRecord) => boolean; what: string },
): Promise<BootRecord> {
  return waitFor(async () => {
    const newest = recordsSince(await serverRecords(env, uuid), options.before).boots.at(-1);
    return newest && options.accept(newest) ? newest : undefined;
  }, { timeoutMs: 60_000, what: options.what });
}

/** The records added since `before` (an earlier read of the same server). */
export function recordsSince(now: SystemRecords, before: SystemRecords): SystemRecords {
  return {
    ...now,
    boots: now.boots.slice(before.boots.length),
    inspections: now.inspections.slice(before.inspections.length),
    diskWipes: now.diskWipes.slice(before.diskWipes.length),
    imageWrites: now.imageWrites.slice(before.imageWrites.length),
    customDeploySteps: now.customDeploySteps.slice(before.customDeploySteps.length),
    nodes: now.nodes.slice(before.nodes.length),
    gracefulShutdowns: now.gracefulShutdowns.slice(before.gracefulShutdowns.length),
    raidConfigurations: now.raidConfigurations.slice(before.raidConfigurations.length),
  };
}

/** Waits until the host's HostFirmwareSettings (or, with `kind: 'hfc'`, HostFirmwareComponents) satisfies `accept`; a timeout shows the last one read. */
export async function waitForFirmwareSettings<T>(
  kubectl: Kubectl,
  options: { namespace: string; host: string; accept: (settings: T) => boolean; timeoutMs: number; kind?: 'hfs' | 'hfc' },
): Promise<T> {
  let last: T | undefined;
  const kind = options.kind ?? 'hfs';
  return waitFor(async () => {
    const result = await kubectl.run(['get', kind, options.host, '-n', options.namespace, '-o', 'json']);
    if (result.code !== 0) return undefined;
    last = JSON.parse(result.stdout) as T;
    return options.accept(last) ? last : undefined;
  }, { timeoutMs: options.timeoutMs, intervalMs: 1_000, what: `${kind === 'hfs' ? 'HostFirmwareSettings' : 'HostFirmwareComponents'} ${options.host}` }).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}; last: ${JSON.stringify(last ?? null)}`, { cause: error });
  });
}
