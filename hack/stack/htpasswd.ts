import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './commands.ts';

export interface BasicCredentials {
  username: string;
  password: string;
}

async function bcryptHash(password: string, venv: string): Promise<string> {
  const hash = await run(
    join(venv, 'bin', 'python'),
    ['-c', 'import bcrypt,sys; print(bcrypt.hashpw(sys.stdin.read().encode(), bcrypt.gensalt(rounds=5)).decode())'],
    { component: 'htpasswd', input: password },
  );
  return hash.trim();
}

/**
 * Ironic and sushy-tools only accept bcrypt entries; the venv's python has bcrypt. Several users
 * are how a password is rotated without refusing anyone. The file is replaced whole (Ironic reads
 * it on every request, so it must never see it half written).
 */
export async function writeHtpasswd(path: string, credentials: BasicCredentials | readonly BasicCredentials[], venv: string): Promise<void> {
  const users = Array.isArray(credentials) ? credentials : [credentials as BasicCredentials];
  const lines = await Promise.all(users.map(async (user) => `${user.username}:${await bcryptHash(user.password, venv)}\n`));
  writeFileSync(`${path}.new`, lines.join(''), { mode: 0o600 });
  renameSync(`${path}.new`, path);
}
