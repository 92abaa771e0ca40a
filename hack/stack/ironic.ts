import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './commands.ts';
import { writeHtpasswd, type BasicCredentials } from './htpasswd.ts';
import { renderIronicConfig } from './ironic-config.ts';
import { repoRoot } from './paths.ts';
import { startProcess, waitUntil, type ProcessSpec, type TrackedProcess } from './processes.ts';

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
}

export interface IronicStarted {
  spec: ProcessSpec;
  process: TrackedProcess;
  url: string;
}

/** Single-process standalone Ironic on sqlite; waits until `GET /v1` answers. */
export async function startIronic(options: IronicOptions): Promise<IronicStarted> {
  const dir = join(options.stateDir, 'ironic');
  for (const sub of ['locks', 'tftpboot/master_images', 'images', 'master_images']) {
    mkdirSync(join(dir, sub), { recursive: true });
  }
  // Ironic writes iPXE scripts and boot ISOs here; the artifacts server serves them.
  const httpRoot = join(options.artifactsRoot, 'httpboot');
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
      httpUrl: `${options.artifactsUrl}/httpboot`,
      auth: options.auth ? { strategy: 'http_basic', htpasswdFile } : { strategy: 'noauth' },
    }),
  );
  await run(join(options.venv, 'bin', 'ironic-dbsync'), ['--config-file', configPath, 'create_schema'], {
    component: 'ironic-dbsync',
  });
  const spec: ProcessSpec = {
    name: 'ironic',
    command: join(options.venv, 'bin', 'ironic'),
    args: ['--config-file', configPath],
    env: { PATH: `${join(options.venv, 'bin')}:${process.env.PATH ?? ''}` },
    logPath: join(options.stateDir, 'logs', 'ironic.log'),
  };
  const started = startProcess(spec);
  const url = `http://127.0.0.1:${options.port}`;
  await waitForIronic(url, started);
  return { spec, process: started, url };
}

export async function waitForIronic(url: string, process?: TrackedProcess): Promise<void> {
  // GET /v1 is public even under http_basic, so readiness needs no credentials.
  await waitUntil(async () => (await fetch(`${url}/v1`)).ok, {
    what: 'ironic API', timeoutMs: 60_000, ...(process ? { process } : {}),
  });
}
