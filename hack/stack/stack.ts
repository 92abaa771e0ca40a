import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAgentSimulator } from './agent-simulator.ts';
import { startArtifactsServer, writeRegistryConfig } from './artifacts.ts';
import { writeArtifacts } from '../artifacts/images.ts';
import type { BasicCredentials } from './htpasswd.ts';
import { startIpmiBmc } from './ipmi-bmc.ts';
import { installIronicVenv, startIronic, waitForIronic } from './ironic.ts';
import { buildKubeBinaries, startKube, waitForApiServer } from './kube.ts';
import { freePorts } from './ports.ts';
import { isAlive, startProcess, stopProcess, waitUntil, type ProcessSpec, type TrackedProcess } from './processes.ts';
import {
  envJsonFile, envShellFile, readPartialComponents, readState, readStateComponents, stateFile, writePartialComponents, writeState,
  type ComponentRecord, type StackEnv,
} from './state.ts';
import { startSushy } from './sushy.ts';
import { emulatedSystems } from './systems.ts';
import { startWorkloadKube } from './workload-kube.ts';

export interface StackOptions {
  stateDir: string;
  /** Emulated servers behind sushy-tools. */
  systems: number;
  /** Run Ironic with http_basic and generated credentials instead of noauth. */
  ironicBasicAuth: boolean;
  /**
   * Indices of emulated servers whose BMC is a Redfish emulator of their own (component
   * `sushy-emulator-isolated`), so stopping it is an outage for them alone. Default: none.
   */
  isolatedBmcSystems?: readonly number[];
  /**
   * Index of an emulated server given an IPMI BMC of its own (component `ipmi-bmc-isolated`) in
   * front of its Redfish system, so stopping that BMC is an IPMI outage for that server alone
   * while the server (its power, the agent simulator playing it) carries on. Default: none.
   */
  isolatedIpmiBmcSystem?: number;
  /** Protect the emulated BMCs with basic auth (what a BareMetalHost's credentials Secret unlocks). */
  bmcBasicAuth: boolean;
  /** Ironic's power sync interval (`ironic-config.ts`); the tests' 10 s when absent. */
  ironicPowerSyncIntervalSeconds?: number;
  /** Progress lines for a person watching. */
  log?: (line: string) => void;
}

export const defaultBmcCredentials: BasicCredentials = { username: 'admin', password: 'metal3-ts-bmc' };

/** Brings everything up. On failure, stops what it started and rethrows naming the component. */
export async function stackUp(options: StackOptions): Promise<StackEnv> {
  const log = options.log ?? (() => {});
  const { stateDir } = options;
  if (readStateComponents(stateDir)) throw new Error(`a stack is already recorded in ${stateFile(stateDir)}; run 'stack down' first`);
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(join(stateDir, 'logs'), { recursive: true });
  const components: ComponentRecord[] = [];
  const track = (entry: { spec: ProcessSpec; process: TrackedProcess }, readiness: ComponentRecord['readiness']) => {
    components.push({ name: entry.process.name, pid: entry.process.pid, logPath: entry.process.logPath, spec: entry.spec, readiness });
    writePartialComponents(stateDir, components);
  };
  try {
    log('building or reusing kube-apiserver/etcd/kubectl and the Ironic venv');
    const [binaries, venv] = await Promise.all([buildKubeBinaries(), installIronicVenv()]);
    const [artifactsPort, simulatorPort, sushyPort, ironicPort, ipmiPort, isolatedSushyPort, isolatedIpmiPort] =
      (await freePorts(7)) as [number, number, number, number, number, number, number];

    log('starting etcd and kube-apiserver');
    const kube = await startKube(stateDir, binaries);
    for (const entry of kube.processes) {
      track(entry, entry.process.name === 'kube-apiserver'
        ? { kind: 'kube', kubectl: kube.kubectl, kubeconfig: kube.kubeconfig }
        : { kind: 'http', url: `${kube.etcdUrl}/health` });
    }

    // Before the agent simulator, which registers each provisioned server as a Node there.
    log('starting the workload cluster API server');
    const workload = await startWorkloadKube({ stateDir, binaries, etcdUrl: kube.etcdUrl });
    track(workload, { kind: 'kube', kubectl: kube.kubectl, kubeconfig: workload.kubeconfig });

    const artifactsRoot = join(stateDir, 'artifacts');
    const { images } = writeArtifacts(artifactsRoot);
    log('starting the artifacts server');
    const registry = writeRegistryConfig({ stateDir, artifactsRoot, image: images[0]!.path });
    const artifacts = await startArtifactsServer({ stateDir, root: artifactsRoot, port: artifactsPort, registryConfigFile: registry.configFile });
    track(artifacts, { kind: 'http', url: `${artifacts.url}/ipa.kernel` });

    const ironicUrl = `http://127.0.0.1:${ironicPort}`;
    const ironicAuth = options.ironicBasicAuth ? { username: 'ironic', password: randomBytes(12).toString('hex') } : undefined;
    const bmcAuth = options.bmcBasicAuth ? defaultBmcCredentials : undefined;
    const systems = emulatedSystems(options.systems);
    const isolatedIndices = [...new Set(options.isolatedBmcSystems ?? [])].sort((a, b) => a - b);
    const ipmiIndex = options.isolatedIpmiBmcSystem;
    const outOfRange = [...isolatedIndices, ...(ipmiIndex === undefined ? [] : [ipmiIndex])]
      .filter((index) => !Number.isInteger(index) || index < 0 || index >= systems.length);
    if (outOfRange.length > 0) throw new Error(`isolated BMC servers ${outOfRange.join(', ')} are not among the ${systems.length} emulated servers`);
    const isolatedSystems = isolatedIndices.map((index) => systems[index]!);
    const sharedSystems = systems.filter((system) => !isolatedSystems.includes(system));
    log(`starting the agent simulator for ${systems.length} systems`);
    const sushyUrl = `http://127.0.0.1:${sushyPort}`;
    const isolatedSushyUrl = `http://127.0.0.1:${isolatedSushyPort}`;
    const bmcUrlOf = (system: (typeof systems)[number]) => (isolatedSystems.includes(system) ? isolatedSushyUrl : sushyUrl);
    const simulator = await startAgentSimulator({
      stateDir, port: simulatorPort, ironicUrl, redfishUrl: sushyUrl, systems, workloadKubeconfig: workload.kubeconfig,
      etcdBinary: binaries.etcd,
      redfishUrlBySystem: new Map(isolatedSystems.map((system) => [system.uuid, isolatedSushyUrl])),
      trustedCaFile: kube.ca.cert,
      ...(ironicAuth ? { ironicAuth } : {}), ...(bmcAuth ? { redfishAuth: bmcAuth } : {}),
    });
    track(simulator, { kind: 'http', url: `${simulator.url}/healthz` });

    log('starting sushy-emulator');
    const sushy = await startSushy({ stateDir, venv, port: sushyPort, systems: sharedSystems, notificationUrl: `${simulator.url}/`,
      ...(bmcAuth ? { auth: bmcAuth } : {}) });
    track(sushy, { kind: 'http', url: `${sushy.url}/redfish/v1/` });
    let isolatedBmc: StackEnv['isolatedBmc'];
    if (isolatedSystems.length > 0) {
      log(`starting the isolated sushy-emulator for servers ${isolatedIndices.join(', ')}`);
      const isolated = await startSushy({ stateDir, venv, port: isolatedSushyPort, systems: isolatedSystems, instance: 'isolated',
        notificationUrl: `${simulator.url}/`, ...(bmcAuth ? { auth: bmcAuth } : {}) });
      track(isolated, { kind: 'http', url: `${isolated.url}/redfish/v1/` });
      isolatedBmc = { component: isolated.process.name, url: isolated.url, systems: isolatedIndices };
    }

    log('starting the IPMI BMC emulator');
    const ipmiBmc = await startIpmiBmc({ stateDir, venv, port: ipmiPort, credentials: bmcAuth ?? defaultBmcCredentials });
    track(ipmiBmc, { kind: 'process' });
    let isolatedIpmiBmc: StackEnv['isolatedIpmiBmc'];
    if (ipmiIndex !== undefined) {
      const system = systems[ipmiIndex]!;
      log(`starting the isolated IPMI BMC for server ${ipmiIndex}`);
      const isolated = await startIpmiBmc({ stateDir, venv, port: isolatedIpmiPort, credentials: bmcAuth ?? defaultBmcCredentials,
        name: 'ipmi-bmc-isolated', redfishSystem: { url: `${bmcUrlOf(system)}/redfish/v1/Systems/${system.uuid}`, credentials: bmcAuth } });
      track(isolated, { kind: 'process' });
      isolatedIpmiBmc = { component: isolated.process.name, address: isolated.address, system: ipmiIndex };
    }

    log('starting ironic');
    const ironic = await startIronic({ stateDir, venv, port: ironicPort, artifactsUrl: artifacts.url, artifactsRoot,
      ...(ironicAuth ? { auth: ironicAuth } : {}),
      ...(options.ironicPowerSyncIntervalSeconds !== undefined ? { powerSyncIntervalSeconds: options.ironicPowerSyncIntervalSeconds } : {}) });
    track(ironic, { kind: 'http', url: `${ironic.url}/v1` });

    let ironicAuthEnv: StackEnv['ironicAuth'];
    if (ironicAuth) {
      // BMO's layout: <METAL3_AUTH_ROOT_DIR>/ironic/{username,password}.
      const directory = join(stateDir, 'auth', 'ironic');
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      writeFileSync(join(directory, 'username'), ironicAuth.username, { mode: 0o600 });
      writeFileSync(join(directory, 'password'), ironicAuth.password, { mode: 0o600 });
      ironicAuthEnv = { ...ironicAuth, directory };
    }
    const env: StackEnv = {
      stateDir,
      kubeconfig: kube.kubeconfig,
      kubectl: kube.kubectl,
      ca: kube.ca,
      apiServerUrl: kube.apiServerUrl,
      etcdUrl: kube.etcdUrl,
      workload: { kubeconfig: workload.kubeconfig, apiServerUrl: workload.apiServerUrl },
      ironicUrl: ironic.url,
      ...(ironicAuthEnv ? { ironicAuth: ironicAuthEnv } : {}),
      ironicVenv: venv,
      baremetal: join(venv, 'bin', 'baremetal'),
      sushyUrl: sushy.url,
      ...(isolatedBmc ? { isolatedBmc } : {}),
      ...(isolatedIpmiBmc ? { isolatedIpmiBmc } : {}),
      ...(bmcAuth ? { bmcCredentials: bmcAuth } : {}),
      agentSimulatorUrl: simulator.url,
      artifactsUrl: artifacts.url,
      images: images.map((image) => ({ url: `${artifacts.url}/${image.path}`, sha256: image.sha256, md5: image.md5,
        sizeBytes: image.sizeBytes })),
      ociRegistry: {
        image: `oci://${artifacts.url.replace('http://', '')}/${registry.repository}:${registry.tag}`,
        requestsUrl: `${artifacts.url}/registry/requests`,
        credentials: registry.credentials,
      },
      ipmiBmc: { address: ipmiBmc.address, bootMacAddress: '00:5a:91:ff:ff:01', credentials: bmcAuth ?? defaultBmcCredentials },
      systems: systems.map((system) => ({
        ...system,
        redfishAddress: `redfish+${bmcUrlOf(system)}/redfish/v1/Systems/${system.uuid}`,
        bmcUrl: bmcUrlOf(system),
      })),
    };
    writeState(stateDir, { components, env });
    writeFileSync(envJsonFile(stateDir), `${JSON.stringify(env, null, 2)}\n`, { mode: 0o600 });
    writeFileSync(envShellFile(stateDir), shellEnv(env), { mode: 0o600 });
    return env;
  } catch (error) {
    await stopComponents(components);
    throw error;
  }
}

function shellEnv(env: StackEnv): string {
  const lines = [
    `export KUBECONFIG=${env.kubeconfig}`,
    `export WORKLOAD_KUBECONFIG=${env.workload.kubeconfig}`,
    `export PATH=${join(env.ironicVenv, 'bin')}:${join(env.kubectl, '..')}:$PATH`,
    `export OS_ENDPOINT=${env.ironicUrl}`,
    ...(env.ironicAuth
      ? ['export OS_AUTH_TYPE=http_basic', `export OS_USERNAME=${env.ironicAuth.username}`, `export OS_PASSWORD=${env.ironicAuth.password}`]
      : ['export OS_AUTH_TYPE=none']),
    `export METAL3_TS_STACK_DIR=${env.stateDir}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Stops every recorded component, newest first; safe to call on a half-started stack. */
export async function stackDown(stateDir: string): Promise<string[]> {
  const components = readStateComponents(stateDir) ?? readPartialComponents(stateDir);
  await stopComponents(components);
  rmSync(stateFile(stateDir), { force: true });
  rmSync(join(stateDir, 'components.json'), { force: true });
  return components.map((component) => component.name);
}

async function stopComponents(components: ComponentRecord[]): Promise<void> {
  for (const component of [...components].reverse()) await stopProcess(component);
}

export interface ComponentStatus {
  name: string;
  pid: number;
  running: boolean;
  logPath: string;
}

export function stackStatus(stateDir: string): { env?: StackEnv; components: ComponentStatus[] } {
  // An env from an older schema is not an error here: the processes are still listed.
  let state: ReturnType<typeof readState>;
  try {
    state = readState(stateDir);
  } catch {
    state = undefined;
  }
  const components = (readStateComponents(stateDir) ?? readPartialComponents(stateDir)).map((component) => ({
    name: component.name, pid: component.pid, running: isAlive(component.pid), logPath: component.logPath,
  }));
  return { ...(state ? { env: state.env } : {}), components };
}

/** Stops one component and starts it again with the same arguments (same port, same data). */
export async function restartComponent(stateDir: string, name: string): Promise<void> {
  await stopComponent(stateDir, name);
  await startComponent(stateDir, name);
}

/** Stops one component, keeping its record so startComponent can bring it back (outage tests). */
export async function stopComponent(stateDir: string, name: string): Promise<void> {
  const { component } = recordedComponent(stateDir, name);
  await stopProcess(component);
}

/** Starts a stopped component again with its recorded arguments and waits until it is ready. */
export async function startComponent(stateDir: string, name: string): Promise<void> {
  const { state, component } = recordedComponent(stateDir, name);
  if (isAlive(component.pid)) throw new Error(`${name} is already running (pid ${component.pid})`);
  const started = startProcess(component.spec as ProcessSpec);
  component.pid = started.pid;
  writeState(stateDir, state);
  const readiness = component.readiness;
  if (readiness.kind === 'kube') await waitForApiServer({ ...readiness, process: started });
  else if (name === 'ironic') await waitForIronic(state.env.ironicUrl, started);
  else if (readiness.kind === 'process') await waitUntil(async () => true, { what: name, timeoutMs: 1_000, process: started });
  else {
    await waitUntil(async () => (await fetch(readiness.url)).ok, { what: name, timeoutMs: 60_000, process: started });
  }
}

function recordedComponent(stateDir: string, name: string) {
  const state = readState(stateDir);
  const component = state?.components.find((entry) => entry.name === name);
  if (!state || !component) throw new Error(`no running stack component named ${name} in ${stateDir}`);
  return { state, component };
}
