import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { repoRoot } from './paths.ts';
import { startProcess, waitUntil, type ProcessSpec, type TrackedProcess } from './processes.ts';

export interface ArtifactsStarted {
  spec: ProcessSpec;
  process: TrackedProcess;
  url: string;
}

/** The local HTTP server for deploy kernel/ramdisk, Ironic's HTTP root and test images. */
export async function startArtifactsServer(options: {
  stateDir: string;
  root: string;
  port: number;
  /** Settings of the OCI registry served under /v2/ (hack/artifacts/main.ts reads them). */
  registryConfigFile?: string;
}): Promise<ArtifactsStarted> {
  const spec: ProcessSpec = {
    name: 'artifacts',
    command: process.execPath,
    args: ['--disable-warning=ExperimentalWarning', join(repoRoot, 'hack', 'artifacts', 'main.ts'),
      '--root', options.root, '--port', String(options.port),
      ...(options.registryConfigFile ? ['--registry-config', options.registryConfigFile] : [])],
    logPath: join(options.stateDir, 'logs', 'artifacts.log'),
  };
  const started = startProcess(spec);
  const url = `http://127.0.0.1:${options.port}`;
  await waitUntil(async () => (await fetch(`${url}/ipa.kernel`, { method: 'HEAD' })).ok, {
    what: 'artifacts server', timeoutMs: 15_000, process: started,
  });
  return { spec, process: started, url };
}

export interface RegistrySettings {
  configFile: string;
  repository: string;
  tag: string;
  credentials: { username: string; password: string };
}

/**
 * The OCI registry's settings with fresh pull credentials, written beside the stack state (not
 * under the served root): the registry serves `image` (a path below the root) as
 * `metal3/test-os:v1`.
 */
export function writeRegistryConfig(options: { stateDir: string; artifactsRoot: string; image: string }): RegistrySettings {
  const settings = {
    repository: 'metal3/test-os',
    tag: 'v1',
    imageFile: join(options.artifactsRoot, options.image),
    imageTitle: basename(options.image),
    credentials: { username: 'metal3-puller', password: randomBytes(12).toString('hex') },
  };
  const configFile = join(options.stateDir, 'registry.json');
  writeFileSync(configFile, JSON.stringify(settings), { mode: 0o600 });
  return { configFile, repository: settings.repository, tag: settings.tag, credentials: settings.credentials };
}
