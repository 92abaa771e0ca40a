import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One request Ironic's API served, as its own log records it. */
export interface IronicApiRequest {
  /** When Ironic logged it (its log's clock, UTC). */
  at: Date;
  method: string;
  path: string;
  status: number;
}

const API_LINE = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) \d+ INFO ironic\.api \[[^\]]*\] \S+ - (\w+) (\S+) - (\d{3}) /gm;

/**
 * The requests Ironic's API answered whose path contains `pathPart` (e.g. a node's UUID), oldest
 * first, from Ironic's log ("127.0.0.1 - PUT /v1/nodes/<uuid>/states/power - 202 (…ms)"): what
 * reached Ironic, whoever sent it, with Ironic's answer.
 */
export function ironicApiRequests(env: { stateDir: string }, pathPart: string): IronicApiRequest[] {
  const log = readFileSync(join(env.stateDir, 'logs', 'ironic.log'), 'utf8');
  const requests: IronicApiRequest[] = [];
  for (const match of log.matchAll(API_LINE)) {
    const path = match[3]!;
    if (!path.includes(pathPart)) continue;
    requests.push({ at: new Date(`${match[1]!.replace(' ', 'T')}Z`), method: match[2]!, path, status: Number(match[4]) });
  }
  return requests;
}

const NODE_MESSAGE_LINE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \d+ (INFO|WARNING|ERROR|CRITICAL) \S+ \[[^\]]*\] (.*)$/gm;

/** One message Ironic logged at INFO or above. */
export interface IronicLogMessage {
  level: 'INFO' | 'WARNING' | 'ERROR' | 'CRITICAL';
  text: string;
}

/**
 * What Ironic logged at INFO or above that names the node, oldest first: its record of what its
 * conductor did ("Node <uuid> moved to provision state …", "Executing service on node <uuid>, …",
 * "Timed out after 180 secs waiting for power off on node <uuid>."). Tests read this rather than
 * the node's history API, which Metal3 turns off (`[conductor] node_history = False`).
 */
export function ironicNodeMessages(env: { stateDir: string }, nodeUuid: string): IronicLogMessage[] {
  const log = readFileSync(join(env.stateDir, 'logs', 'ironic.log'), 'utf8');
  const messages: IronicLogMessage[] = [];
  for (const match of log.matchAll(NODE_MESSAGE_LINE)) {
    const text = match[2]!;
    if (text.includes(nodeUuid)) messages.push({ level: match[1] as IronicLogMessage['level'], text });
  }
  return messages;
}

/**
 * The power changes Ironic's conductor completed on a node, oldest first, from its own log
 * ("Successfully set node <uuid> power state to <state> by <request>"): `power off by soft power
 * off`, `power off by power off`, `power on by rebooting`, … Shows how a change was made, which
 * the node's power_state cannot.
 */
export function ironicPowerChanges(env: { stateDir: string }, nodeUuid: string): string[] {
  const prefix = `Successfully set node ${nodeUuid} power state to `;
  return ironicNodeMessages(env, nodeUuid)
    .filter((message) => message.text.startsWith(prefix) && message.text.endsWith('.'))
    .map((message) => message.text.slice(prefix.length, -1));
}
