import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { StackEnv } from './stack-env.ts';

const READER = fileURLToPath(new URL('./ironic-switch-config.py', import.meta.url));

/** What Ironic's networking service makes of a switch configuration file: its generic-switch sections. */
export interface IronicSwitchConfig {
  count: number;
  sections: Record<string, Record<string, string>>;
}

/** Runs Ironic's own switch configuration reader (the stack's Ironic) on `content`; rejects with Ironic's error if it refuses it. */
export async function readSwitchConfigAsIronic(env: Pick<StackEnv, 'ironicVenv'>, content: string): Promise<IronicSwitchConfig> {
  const dir = mkdtempSync(join(tmpdir(), 'switch-config-'));
  try {
    const file = join(dir, 'switch-configs.conf');
    writeFileSync(file, content, { mode: 0o600 });
    const { stdout } = await promisify(execFile)(join(env.ironicVenv, 'bin', 'python'), [READER, file], { timeout: 60_000 });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as IronicSwitchConfig;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
