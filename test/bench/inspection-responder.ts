// For fake-hardware nodes nothing boots, so this plays the ramdisk's one inspection step: it
// lists nodes in `inspect wait` every `intervalMs` and posts the agent simulator's inventory for
// each (POST /v1/continue_inspection, as IPA does). The floor and the operator get the same
// responder, so its delay weighs on both alike.
import { setTimeout as sleep } from 'node:timers/promises';
import { parseSimulatorConfig } from '../../hack/agent-simulator/config.ts';
import { buildInspectionData } from '../../hack/agent-simulator/inspection-data.ts';
import { buildInventory } from '../../hack/agent-simulator/inventory.ts';
import { mapLimit } from './concurrency.ts';
import type { IronicHttp } from './floor/ironic-http.ts';

export interface InspectionResponderOptions {
  http: IronicHttp;
  intervalMs: number;
  /** The boot MAC of a node this run owns, by Ironic node name; undefined for other nodes. */
  macFor: (nodeName: string) => string | undefined;
  log: (line: string) => void;
}

export interface InspectionResponder {
  /** Inspections answered so far. */
  answered(): number;
  stop(): Promise<void>;
}

/** The request body a ramdisk with this boot NIC would send for this node. */
export function inspectionBody(options: { ironicUrl: string; nodeUuid: string; name: string; mac: string }): Record<string, unknown> {
  const [system] = parseSimulatorConfig({
    listen: { port: 0 },
    ironicUrl: options.ironicUrl,
    redfish: { url: 'http://127.0.0.1:9' },
    systems: [{ uuid: options.nodeUuid, name: options.name, nics: [{ mac: options.mac }] }],
  }).systems;
  return buildInspectionData(buildInventory(system!));
}

export function startInspectionResponder(options: InspectionResponderOptions & { ironicUrl: string }): InspectionResponder {
  const answered = new Set<string>();
  const answerWaiting = async (): Promise<void> => {
    const waiting = await options.http.request<{ nodes: Array<{ uuid: string; name: string | null }> }>({
      method: 'GET', route: '/v1/nodes', query: `provision_state=${encodeURIComponent('inspect wait')}&fields=uuid,name&limit=1000`,
    });
    const ours = waiting.nodes.filter((node) => !answered.has(node.uuid) && options.macFor(node.name ?? '') !== undefined);
    await mapLimit(ours, 8, async (node) => {
      const mac = options.macFor(node.name ?? '') as string;
      await options.http.request({
        method: 'POST', route: '/v1/continue_inspection', query: `node_uuid=${node.uuid}`,
        body: inspectionBody({ ironicUrl: options.ironicUrl, nodeUuid: node.uuid, name: node.name ?? node.uuid, mac }),
      });
      answered.add(node.uuid);
    });
  };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = Date.now();
      try {
        await answerWaiting();
      } catch (error) {
        options.log(`inspection responder: ${(error as Error).message}`);
      }
      await sleep(Math.max(0, options.intervalMs - (Date.now() - started)));
    }
  })();
  return {
    answered: () => answered.size,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}
