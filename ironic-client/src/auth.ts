// Ironic standalone auth as BMO supports it: none, or HTTP basic. Credentials may come from a
// directory holding `username` and `password` files (BMO: $METAL3_AUTH_ROOT_DIR/ironic).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type IronicAuthOptions =
  | { type: 'none' }
  | { type: 'http_basic'; username: string; password: string }
  | { type: 'http_basic'; credentialsDir: string };

/** Resolved credentials; only the header value is kept, never logged. */
export interface ResolvedAuth {
  type: 'none' | 'http_basic';
  /** Value for the Authorization header, when any. */
  authorization: string | undefined;
}

async function readCredentialFile(dir: string, name: 'username' | 'password'): Promise<string> {
  const path = join(dir, name);
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new Error(`cannot read Ironic ${name} file ${path}: ${code}`, { cause: error });
  }
  // Secrets mounted from Kubernetes or written by `echo` often end in a newline.
  const value = content.replace(/\r?\n$/, '');
  if (value === '') throw new Error(`Ironic ${name} file ${path} is empty`);
  return value;
}

function basicHeader(username: string, password: string): string {
  if (username.includes(':')) throw new Error('HTTP basic usernames cannot contain ":"');
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

export async function resolveAuth(options: IronicAuthOptions | undefined): Promise<ResolvedAuth> {
  if (options === undefined || options.type === 'none') return { type: 'none', authorization: undefined };
  if ('credentialsDir' in options) {
    const username = await readCredentialFile(options.credentialsDir, 'username');
    const password = await readCredentialFile(options.credentialsDir, 'password');
    return { type: 'http_basic', authorization: basicHeader(username, password) };
  }
  if (options.username === '' || options.password === '') throw new Error('HTTP basic auth needs a username and a password');
  return { type: 'http_basic', authorization: basicHeader(options.username, options.password) };
}
