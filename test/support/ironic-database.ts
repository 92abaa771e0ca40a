import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Writes straight into the stack's Ironic database (its sqlite file), for states the emulated
 * hardware cannot bring about: a BMC's health report (sushy-tools always reports `OK`) or a
 * conductor holding a node's lock. Run in a child process, as node:sqlite is synchronous and the
 * database may be busy for a moment (Ironic holds it between statements).
 */
function runStatement(stateDir: string, sql: string, parameters: (string | null)[]): number {
  const script = `const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1], { timeout: 10000 });
const parameters = JSON.parse(process.argv[3]);
process.stdout.write(String(db.prepare(process.argv[2]).run(...parameters).changes));`;
  const out = execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', '-e', script,
    join(stateDir, 'ironic', 'ironic.sqlite'), sql, JSON.stringify(parameters)], { encoding: 'utf8' });
  return Number(out);
}

/** Sets the node's stored `health` (`OK`, `Warning`, `Critical`); Ironic's next power sync reads the BMC's again. */
export function storeIronicNodeHealth(stateDir: string, nodeUuid: string, health: string): void {
  runStatement(stateDir, 'UPDATE nodes SET health = ? WHERE uuid = ?', [health, nodeUuid]);
}

/**
 * Takes the node's lock for `holder`, as a conductor running a task does (`reservation`): Ironic
 * then answers 409 NodeLocked to every change of the node until it is released. False when
 * someone else holds it right now (try again).
 */
export function reserveIronicNode(stateDir: string, nodeUuid: string, holder: string): boolean {
  return runStatement(stateDir, 'UPDATE nodes SET reservation = ? WHERE uuid = ? AND reservation IS NULL', [holder, nodeUuid]) === 1;
}

/** Releases a lock `reserveIronicNode` took (only that holder's). */
export function releaseIronicNode(stateDir: string, nodeUuid: string, holder: string): void {
  runStatement(stateDir, 'UPDATE nodes SET reservation = NULL WHERE uuid = ? AND reservation = ?', [nodeUuid, holder]);
}
