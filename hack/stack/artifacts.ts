import { join } from 'node:path';
import { repoRoot } from './paths.ts';
import { startProcess, waitUntil, type ProcessSpec, type TrackedProcess } from './processes.ts';

export interface ArtifactsStarted {
  spec: ProcessSpec;
  process: TrackedProcess;
  url: string;
}

/** The local HTTP server for deploy kernel/ramdisk, Ironic's HTTP root and test images. */
export async function startArtifactsServer(options: { stateDir: string; root: string; port: number }): Promise<ArtifactsStarted> {
  const spec: ProcessSpec = {
    name: 'artifacts',
    command: process.execPath,
    args: ['--disable-warning=ExperimentalWarning', join(repoRoot, 'hack', 'artifacts', 'main.ts'),
      '--root', options.root, '--port', String(options.port)],
    logPath: join(options.stateDir, 'logs', 'artifacts.log'),
  };
  const started = startProcess(spec);
  const url = `http://127.0.0.1:${options.port}`;
  await waitUntil(async () => (await fetch(`${url}/ipa.kernel`, { method: 'HEAD' })).ok, {
    what: 'artifacts server', timeoutMs: 15_000, process: started,
  });
  return { spec, process: started, url };
}
