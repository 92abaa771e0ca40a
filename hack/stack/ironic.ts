import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { join } from 'node:path';
import { run } from './commands.ts';
import { writeHtpasswd, type BasicCredentials } from './htpasswd.ts';
import { renderIronicConfig } from './ironic-config.ts';
import { repoRoot } from './paths.ts';
import { startProcess, waitUntil, type ProcessSpec, type TrackedProcess } from './processes.ts';

/**
 * Put on Ironic's PYTHONPATH: its sitecustomize.py remembers the PBKDF2 digests Ironic's Redfish
 * driver recomputes on every BMC call (three quarters of Ironic's CPU otherwise; see the file).
 */
export const IRONIC_SITE_DIR = join(repoRoot, 'hack', 'ironic', 'site');

/** Installs (or reuses) the pinned venv with Ironic, its CLI and sushy-tools. Returns its path. */
export async function installIronicVenv(): Promise<string> {
  await run('bash', [join(repoRoot, 'hack', 'install-system-packages.sh')], { component: 'system packages' });
  const out = await run('bash', [join(repoRoot, 'hack', 'ironic', 'install.sh')], { component: 'ironic venv' });
  return out.trim().split('\n').at(-1) ?? '';
}

export interface IronicOptions {
  stateDir: string;
  venv: string;
  port: number;
  artifactsUrl: string;
  artifactsRoot: string;
  /** Basic auth on Ironic's API (`http_basic`); noauth when absent. */
  auth?: BasicCredentials;
  /** Process and log name, and the conductor's host name suffix; `ironic` by default. A second Ironic needs its own. */
  name?: string;
  /** HTTPS with this serving certificate; `caFile` is what clients trust (readiness checks it). */
  tls?: { certFile: string; keyFile: string; caFile: string };
  /** `[conductor] sync_power_state_interval`; the config's default (10 s) when absent. */
  powerSyncIntervalSeconds?: number;
}

export interface IronicStarted {
  spec: ProcessSpec;
  process: TrackedProcess;
  url: string;
  /** With `auth`: the users Ironic accepts, read on every request (rewrite it to rotate). */
  htpasswdFile?: string;
}

/** Single-process standalone Ironic on sqlite; waits until `GET /v1` answers. */
export async function startIronic(options: IronicOptions): Promise<IronicStarted> {
  const name = options.name ?? 'ironic';
  const dir = join(options.stateDir, name);
  for (const sub of ['locks', 'tftpboot/master_images', 'images', 'master_images']) {
    mkdirSync(join(dir, sub), { recursive: true });
  }
  // Ironic writes iPXE scripts and boot ISOs here; the artifacts server serves them.
  const httpRootName = name === 'ironic' ? 'httpboot' : `httpboot-${name}`;
  const httpRoot = join(options.artifactsRoot, httpRootName);
  mkdirSync(httpRoot, { recursive: true });
  const htpasswdFile = join(dir, 'htpasswd');
  if (options.auth) await writeHtpasswd(htpasswdFile, options.auth, options.venv);
  const configPath = join(dir, 'ironic.conf');
  writeFileSync(
    configPath,
    renderIronicConfig({
      port: options.port,
      stateDir: dir,
      artifactsUrl: options.artifactsUrl,
      httpRoot,
      httpUrl: `${options.artifactsUrl}/${httpRootName}`,
      auth: options.auth ? { strategy: 'http_basic', htpasswdFile } : { strategy: 'noauth' },
      ...(name === 'ironic' ? {} : { conductorHost: `metal3-ts-${name}` }),
      ...(options.tls ? { tls: { certFile: options.tls.certFile, keyFile: options.tls.keyFile } } : {}),
      ...(options.powerSyncIntervalSeconds !== undefined ? { powerSyncIntervalSeconds: options.powerSyncIntervalSeconds } : {}),
    }),
  );
  await run(join(options.venv, 'bin', 'ironic-dbsync'), ['--config-file', configPath, 'create_schema'], {
    component: 'ironic-dbsync',
  });
  const spec: ProcessSpec = {
    name,
    command: join(options.venv, 'bin', 'ironic'),
    args: ['--config-file', configPath],
    env: { PATH: `${join(options.venv, 'bin')}:${process.env.PATH ?? ''}`, PYTHONPATH: IRONIC_SITE_DIR, PYTHONDONTWRITEBYTECODE: '1' },
    logPath: join(options.stateDir, 'logs', `${name}.log`),
  };
  mkdirSync(join(options.stateDir, 'logs'), { recursive: true });
  const started = startProcess(spec);
  const url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${options.port}`;
  await waitForIronic(url, started, options.tls ? { caFile: options.tls.caFile } : {});
  return { spec, process: started, url, ...(options.auth ? { htpasswdFile } : {}) };
}

export async function waitForIronic(url: string, process?: TrackedProcess, tls: { caFile?: string } = {}): Promise<void> {
  // GET /v1 is public even under http_basic, so readiness needs no credentials.
  const answers = tls.caFile === undefined ? async () => (await fetch(`${url}/v1`)).ok : httpsAnswers(`${url}/v1`, tls.caFile);
  await waitUntil(answers, { what: `ironic API at ${url}`, timeoutMs: 60_000, ...(process ? { process } : {}) });
}

/** fetch cannot be handed a CA; node:https can. Resolves true on a 2xx from a server the CA vouches for. */
function httpsAnswers(url: string, caFile: string): () => Promise<boolean> {
  const ca = readFileSync(caFile);
  return () => new Promise((resolveOk, reject) => {
    const request = httpsGet(url, { ca, timeout: 5_000 }, (response) => {
      response.resume();
      resolveOk((response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300);
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
  });
}
