import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './commands.ts';

export interface BasicCredentials {
  username: string;
  password: string;
}

/** Ironic and sushy-tools only accept bcrypt entries; the venv's python has bcrypt. */
export async function writeHtpasswd(path: string, credentials: BasicCredentials, venv: string): Promise<void> {
  const hash = await run(
    join(venv, 'bin', 'python'),
    ['-c', 'import bcrypt,sys; print(bcrypt.hashpw(sys.stdin.read().encode(), bcrypt.gensalt(rounds=5)).decode())'],
    { component: 'htpasswd', input: credentials.password },
  );
  writeFileSync(path, `${credentials.username}:${hash.trim()}\n`, { mode: 0o600 });
}
