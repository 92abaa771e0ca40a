import type { AddressInfo } from 'node:net';
import type { SimulatorConfig, SystemConfig } from './config.ts';
import { allNics, buildInventory } from './inventory.ts';
import { IronicRamdiskApi } from './ironic-api.ts';
import { SimulatedKubeletServer } from './kubelet/kubelet-server.ts';
import { createLogger, type Logger } from './log.ts';
import { SimulatedMachine } from './machine.ts';
import { RecordStore } from './records.ts';
import { RedfishClient } from './redfish.ts';
import { createSimulatorServer } from './server.ts';
import { WorkloadCluster } from './workload-cluster.ts';

export interface RunningSimulator {
  /** Base URL of the simulator (the sushy notification target is `${url}/`). */
  url: string;
  records: RecordStore;
  machines: ReadonlyMap<string, SimulatedMachine>;
  close(): Promise<void>;
}

/** Builds the simulated servers from the config and starts serving; resolves once listening. */
export async function startSimulator(config: SimulatorConfig, logger: Logger = createLogger()): Promise<RunningSimulator> {
  const records = new RecordStore(config.systems);
  const ironic = new IronicRamdiskApi({ url: config.ironicUrl, auth: config.ironicAuth });
  // A kernel command line may name the Ironic API (ipa-api-url); IPA then talks to that one.
  const ironicByUrl = new Map<string, IronicRamdiskApi>([[config.ironicUrl.replace(/\/+$/, ''), ironic]]);
  const ironicAt = (apiUrl: string) => {
    const url = apiUrl.replace(/\/+$/, '');
    let client = ironicByUrl.get(url);
    if (client === undefined) {
      client = new IronicRamdiskApi({ url, auth: config.ironicAuth });
      ironicByUrl.set(url, client);
    }
    return client;
  };
  const redfish = new RedfishClient(config.redfish);
  const redfishFor = (system: SystemConfig) => (system.redfishUrl ? new RedfishClient({ ...config.redfish, url: system.redfishUrl }) : redfish);
  const kubelet = config.workloadKubeconfig === undefined
    ? undefined
    : await SimulatedKubeletServer.start({ host: config.listen.host, port: config.kubeletPort, logger });
  const workload =
    config.workloadKubeconfig === undefined
      ? undefined
      : new WorkloadCluster({
          kubeconfigPath: config.workloadKubeconfig,
          attempts: config.workloadRequestAttempts,
          retryIntervalMs: config.workloadRetryIntervalMs,
          logger,
          ...(kubelet === undefined ? {} : { kubelet }),
        });
  const machines = new Map<string, SimulatedMachine>();
  // The advertised URL may depend on the port the kernel picked (listen.port 0), so machines read it late.
  let advertiseUrl = config.advertiseUrl?.replace(/\/+$/, '') ?? '';

  const server = createSimulatorServer({
    machines,
    records,
    logger,
    get advertiseUrl() {
      return advertiseUrl;
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.listen.port, config.listen.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  if (advertiseUrl === '') advertiseUrl = `http://${config.listen.host}:${port}`;

  for (const system of config.systems) {
    const uuid = system.uuid.toLowerCase();
    machines.set(
      uuid,
      new SimulatedMachine({
        systemUuid: uuid,
        name: system.name,
        macs: allNics(system).map((nic) => nic.mac),
        agentUrl: `${advertiseUrl}/agents/${uuid}`,
        agentVersion: config.agentVersion,
        bootDelayMs: config.bootDelayMs,
        lookupIntervalMs: config.lookupIntervalMs,
        heartbeatIntervalMs: config.heartbeatIntervalMs,
        minHeartbeatIntervalMs: config.minHeartbeatIntervalMs,
        heartbeatErrorRetryMs: config.heartbeatErrorRetryMs,
        agentServices: {
          systemUuid: uuid,
          inventory: buildInventory(system),
          records,
          logger,
          commandDelayMs: config.commandDelayMs,
          imageDownload: { retries: config.imageDownloadRetries, retryIntervalMs: config.imageDownloadRetryIntervalMs },
        },
        ironic,
        ironicAt,
        redfish: redfishFor(system),
        records,
        logger,
        workload,
        etcdBinary: config.etcdBinary,
      }),
    );
  }
  logger.info('agent simulator listening', { url: advertiseUrl, systems: machines.size,
    ...(config.workloadKubeconfig === undefined ? {} : { workloadKubeconfig: config.workloadKubeconfig, kubeletPort: kubelet?.port }) });

  return {
    url: advertiseUrl,
    records,
    machines,
    close: async () => {
      for (const machine of machines.values()) machine.halt();
      await Promise.all([...machines.values()].map((machine) => machine.installedOs.shutdown()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      workload?.close();
      await kubelet?.close();
    },
  };
}
