import { RamdiskAgent, type AgentServices } from '../agent.ts';
import { parseSimulatorConfig, type SystemConfig } from '../config.ts';
import type { WrittenImage } from '../installed-os.ts';
import { buildInventory } from '../inventory.ts';
import { silentLogger } from '../log.ts';
import { RecordStore } from '../records.ts';

export const TEST_TOKEN = 'x'.repeat(43);

export function testSystem(overrides: Partial<SystemConfig> = {}): SystemConfig {
  const config = parseSimulatorConfig({
    listen: { port: 0 },
    ironicUrl: 'http://127.0.0.1:1',
    redfish: { url: 'http://127.0.0.1:1' },
    systems: [{ uuid: '11111111-2222-4333-8444-555555555555', name: 'server-0', nics: [{ mac: '52:54:00:00:00:01' }] }],
  });
  return { ...(config.systems[0] as SystemConfig), ...overrides };
}

export type TestDiskEvent = { kind: 'written'; image: WrittenImage } | { kind: 'wiped'; device: string };

export interface TestAgent {
  agent: RamdiskAgent;
  records: RecordStore;
  powerActions: string[];
  /** What the agent told the disks, in order. */
  diskEvents: TestDiskEvent[];
  finishedCommands: () => number;
}

/** An agent on a simulated server whose power button only records presses. */
export function testAgent(options: { system?: SystemConfig; commandDelayMs?: number } = {}): TestAgent {
  const system = options.system ?? testSystem();
  const records = new RecordStore([system]);
  const powerActions: string[] = [];
  const diskEvents: TestDiskEvent[] = [];
  let finished = 0;
  const services: AgentServices = {
    systemUuid: system.uuid,
    inventory: buildInventory(system),
    records,
    logger: silentLogger(),
    power: {
      off: async () => void powerActions.push('off'),
      restart: async () => void powerActions.push('restart'),
    },
    disk: { imageWritten: (image) => void diskEvents.push({ kind: 'written', image }), wiped: (device) => void diskEvents.push({ kind: 'wiped', device }) },
    commandDelayMs: options.commandDelayMs ?? 0,
    imageDownload: { retries: 0, retryIntervalMs: 0 },
  };
  const agent = new RamdiskAgent({
    services,
    token: TEST_TOKEN,
    node: { uuid: 'node-uuid-1', properties: {}, instance_info: {} },
    onCommandFinished: () => void finished++,
  });
  return { agent, records, powerActions, diskEvents, finishedCommands: () => finished };
}
