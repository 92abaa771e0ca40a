import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitForApiServer } from './kube.ts';
import { freePort } from './ports.ts';
import { startProcess, stopProcess } from './processes.ts';
import { readState, writeState } from './state.ts';

const PEER = 'kube-apiserver-peer';

export interface ApiServerPeer {
  url: string;
  /** The stack's kubeconfig (same admin credentials and CA) pointing at the peer. */
  kubeconfig: string;
}

/**
 * A second kube-apiserver with the stack's own arguments and certificates on the same etcd:
 * an HA control plane's other member. While the stack's API server is stopped, clients of the
 * peer still read and write the same objects. Recorded as a stack component, so `stack down`
 * stops it even if a test does not.
 */
export async function startApiServerPeer(stateDir: string): Promise<ApiServerPeer> {
  const state = readState(stateDir);
  const main = state?.components.find((component) => component.name === 'kube-apiserver');
  if (!state || !main) throw new Error(`no kube-apiserver recorded in ${stateDir}`);
  if (state.components.some((component) => component.name === PEER)) throw new Error(`${PEER} is already running in ${stateDir}`);
  const port = await freePort();
  const url = `https://127.0.0.1:${port}`;
  const spec = {
    ...main.spec,
    name: PEER,
    args: main.spec.args.map((arg) => (arg.startsWith('--secure-port=') ? `--secure-port=${port}`
      : arg.startsWith('--cert-dir=') ? `--cert-dir=${join(stateDir, 'kube', 'peer-cert-dir')}` : arg)),
    logPath: join(stateDir, 'logs', `${PEER}.log`),
  };
  const kubeconfig = join(stateDir, 'kube', 'peer.kubeconfig');
  writeFileSync(kubeconfig, readFileSync(state.env.kubeconfig, 'utf8').replace(state.env.apiServerUrl, url), { mode: 0o600 });
  const started = startProcess(spec);
  state.components.push({ name: PEER, pid: started.pid, logPath: spec.logPath, spec, readiness: { kind: 'kube', kubectl: state.env.kubectl, kubeconfig } });
  writeState(stateDir, state);
  await waitForApiServer({ kubectl: state.env.kubectl, kubeconfig, process: started });
  return { url, kubeconfig };
}

/** Stops the peer and forgets it. */
export async function stopApiServerPeer(stateDir: string): Promise<void> {
  const state = readState(stateDir);
  const peer = state?.components.find((component) => component.name === PEER);
  if (!state || !peer) return;
  await stopProcess(peer);
  writeState(stateDir, { ...state, components: state.components.filter((component) => component !== peer) });
}
