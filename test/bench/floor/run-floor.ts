// The floor: the same N nodes driven through the same Ironic states as the operator's hosts,
// straight through Ironic's API and as fast as it allows (all nodes at once, the next step as
// soon as a node list shows the last one done, lock retries after 250 ms). Its times are what
// Ironic and the emulated hardware cost on this machine at this moment; the operator's times
// are reported as a multiple of them.
import { randomUUID } from 'node:crypto';
import type { StackEnv } from '../../../hack/stack/state.ts';
import type { BenchHost } from '../bench-hosts.ts';
import { startInspectionResponder } from '../inspection-responder.ts';
import { diffTotals } from '../metrics/counter-totals.ts';
import { stackComponents, stackCpuSeconds } from '../metrics/stack-cpu.ts';
import type { MeasuredFloor, MeasuredPhase } from '../report/assemble.ts';
import { PHASES } from '../report/types.ts';
import type { PhaseName } from '../report/types.ts';
import { createIronicHttp } from './ironic-http.ts';
import type { IronicHttp } from './ironic-http.ts';
import { floorConfigDrive, floorDeployPatch, floorNodeBody } from './node-body.ts';
import { startNodePoller } from './node-poller.ts';
import type { NodePoller, NodeState } from './node-poller.ts';
import { withTimeout } from '../timeout.ts';

export interface FloorOptions {
  mode: 'redfish' | 'fake-hardware';
  env: StackEnv;
  hosts: readonly BenchHost[];
  pollMs: number;
  /** Requests kept open at once. */
  inFlight: number;
  /** Ironic node names are `<prefix>-<host name>`, distinct from the operator's `namespace~name`. */
  namePrefix: string;
  phaseTimeoutMs: number;
  log: (line: string) => void;
}

interface FloorContext {
  options: FloorOptions;
  http: IronicHttp;
  poller: NodePoller;
}

async function changeState(context: FloorContext, uuid: string, body: Record<string, unknown>, rest: string): Promise<NodeState> {
  await context.http.request({ method: 'PUT', route: '/v1/nodes/{node_ident}/states/provision', node: uuid, body });
  return context.poller.waitFor(uuid, rest);
}

/** `created` hears of the node as soon as it exists, so a node that fails later is still deleted. */
async function register(context: FloorContext, host: BenchHost, created: (uuid: string) => void): Promise<void> {
  const { options, http } = context;
  const name = `${options.namePrefix}-${host.name}`;
  const node = await http.request<{ uuid: string }>({
    method: 'POST', route: '/v1/nodes', body: floorNodeBody({ mode: options.mode, env: options.env, host, name }),
  });
  created(node.uuid);
  await http.request({ method: 'POST', route: '/v1/ports', body: { address: host.bootMac, node_uuid: node.uuid, pxe_enabled: true } });
  await changeState(context, node.uuid, { target: 'manage' }, 'manageable');
  await changeState(context, node.uuid, { target: 'inspect' }, 'manageable');
  await http.request({ method: 'GET', route: '/v1/nodes/{node_ident}/inventory', node: node.uuid });
}

async function provision(context: FloorContext, host: BenchHost, uuid: string): Promise<void> {
  await changeState(context, uuid, { target: 'provide' }, 'available');
  await context.http.request({
    method: 'PATCH', route: '/v1/nodes/{node_ident}', node: uuid, body: floorDeployPatch({ env: context.options.env, instanceUuid: randomUUID() }),
  });
  const active = await changeState(context, uuid, { target: 'active', configdrive: floorConfigDrive(host.name) }, 'active');
  // The hosts are online: a deployment that ends with the server off (fake interfaces do; IPA
  // reboots a real one into its OS) is powered on, as the operator must. Asked only, as the
  // operator asks in the pass that records `provisioned`, where its phase ends.
  if (active.power_state !== 'power on') {
    await context.http.request({ method: 'PUT', route: '/v1/nodes/{node_ident}/states/power', node: uuid, body: { target: 'power on' } });
  }
}

async function deprovision(context: FloorContext, uuid: string): Promise<void> {
  const available = await changeState(context, uuid, { target: 'deleted' }, 'available');
  // The hosts go offline with the image: a cleaning that left the server on (fake interfaces do;
  // IPA's powers it off) is followed by the soft power off the operator asks for in the same pass.
  if (available.power_state === 'power on') {
    await context.http.request({ method: 'PUT', route: '/v1/nodes/{node_ident}/states/power', node: uuid, body: { target: 'soft power off' } });
  }
}

/** Deletes the floor's nodes so the operator can use the same hardware; maintenance first if Ironic refuses. */
async function removeNodes(context: FloorContext, uuids: ReadonlyArray<string | undefined>): Promise<void> {
  for (const uuid of uuids) {
    if (!uuid) continue;
    try {
      await context.http.request({ method: 'DELETE', route: '/v1/nodes/{node_ident}', node: uuid });
    } catch {
      await context.http.request({ method: 'PUT', route: '/v1/nodes/{node_ident}/maintenance', node: uuid, body: { reason: 'bench floor cleanup' } })
        .catch(() => undefined);
      await context.http.request({ method: 'DELETE', route: '/v1/nodes/{node_ident}', node: uuid })
        .catch((error: unknown) => context.options.log(`floor: could not delete node ${uuid}: ${(error as Error).message}`));
    }
  }
}

export async function runFloor(options: FloorOptions): Promise<{ measured: MeasuredFloor; notes: string[] }> {
  const http = createIronicHttp({ url: options.env.ironicUrl, maxInFlight: options.inFlight });
  const context: FloorContext = { options, http, poller: startNodePoller({ http, intervalMs: options.pollMs }) };
  const macs = new Map(options.hosts.map((host) => [`${options.namePrefix}-${host.name}`, host.bootMac]));
  const responder = options.mode === 'fake-hardware'
    ? startInspectionResponder({
        http: createIronicHttp({ url: options.env.ironicUrl }), ironicUrl: options.env.ironicUrl, intervalMs: options.pollMs,
        macFor: (name) => macs.get(name), log: options.log,
      })
    : undefined;
  const uuids: Array<string | undefined> = options.hosts.map(() => undefined);
  const failed = new Set<number>();
  const notes: string[] = [];
  const steps: Record<PhaseName, (host: BenchHost, index: number) => Promise<void>> = {
    register: (host, index) => register(context, host, (uuid) => {
      uuids[index] = uuid;
    }),
    provision: (host, index) => provision(context, host, uuids[index] as string),
    deprovision: (_host, index) => deprovision(context, uuids[index] as string),
  };
  const phases = {} as MeasuredFloor['phases'];
  try {
    for (const phase of PHASES) {
      options.log(`floor: ${phase} of ${options.hosts.length - failed.size} nodes`);
      const before = http.counts();
      const openBefore = http.openSeconds();
      const stack = stackComponents(options.env.stateDir);
      const stackBefore = stackCpuSeconds(stack);
      const startMs = Date.now();
      const completions = await Promise.all(options.hosts.map(async (host, index) => {
        if (failed.has(index)) return undefined;
        try {
          await withTimeout(steps[phase](host, index), startMs + options.phaseTimeoutMs - Date.now(), `floor ${phase} of ${host.name}`);
          return Date.now();
        } catch (error) {
          failed.add(index);
          notes.push(`floor: ${host.name} failed in ${phase}: ${(error as Error).message}`);
          return undefined;
        }
      }));
      const measured: MeasuredPhase = { startMs, endMs: Date.now(), completions };
      phases[phase] = {
        ...measured,
        ironic: diffTotals(http.counts(), before),
        ironicOpenSeconds: diffTotals(http.openSeconds(), openBefore),
        stackCpu: diffTotals(stackCpuSeconds(stack), stackBefore),
      };
      options.log(`floor: ${phase} done in ${((measured.endMs - startMs) / 1000).toFixed(1)} s`);
    }
  } finally {
    await responder?.stop();
    await context.poller.stop();
    await removeNodes(context, uuids);
  }
  return { measured: { pollMs: options.pollMs, phases }, notes };
}
