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
