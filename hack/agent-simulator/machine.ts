import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentServices, RamdiskAgent } from './agent.ts';
import { InstalledOs } from './installed-os.ts';
import type { RamdiskIronic } from './ironic-api.ts';
import type { Logger } from './log.ts';
import { bootsIntoDisk, powerEventOf, type SushySystem } from './notifications.ts';
import { RamdiskSession, type RamdiskPhase } from './ramdisk.ts';
import type { RamdiskParameters } from './ramdisk-params.ts';
import type { BootRecord, RecordStore, VirtualMediaBootRecord } from './records.ts';
import type { Bmc } from './redfish.ts';
import { bootVirtualCd, firmwareBootMode, mediaRecord } from './virtual-media.ts';
import type { WorkloadNodes } from './workload-cluster.ts';

const POWER_POLL_MS = 500;
/** sushy applies a power change 1-11 s after the request; give up well after that. */
const POWER_WAIT_TIMEOUT_MS = 60_000;

export type OsState = 'off' | 'powering-on' | 'ramdisk' | 'disk' | 'firmware' | 'live-os';

export interface MachineOptions {
  systemUuid: string;
  name: string;
  macs: string[];
  agentUrl: string;
  agentVersion: string;
  bootDelayMs: number;
  lookupIntervalMs: number;
  heartbeatIntervalMs: number | undefined;
  minHeartbeatIntervalMs: number;
  heartbeatErrorRetryMs: number;
  agentServices: Omit<AgentServices, 'power' | 'disk'>;
  ironic: RamdiskIronic;
  /** The Ironic API at the `ipa-api-url` a kernel command line names; `ironic` when absent. */
  ironicAt?: (apiUrl: string) => RamdiskIronic;
  redfish: Bmc;
  records: RecordStore;
  logger: Logger;
  /** Where the installed OS registers its Node; absent: no Nodes. */
  workload?: WorkloadNodes | undefined;
  /** What a control plane node with stacked etcd runs as its etcd (see InstalledOs). */
  etcdBinary?: string | undefined;
}

export interface MachineStatus {
  uuid: string;
  name: string;
  os: OsState;
  ramdisk: RamdiskPhase | null;
  nodeUuid: string | null;
  agentUrl: string;
  /** The Node the installed OS registered in the workload cluster. */
  workloadNode: string | null;
  /** False while a test keeps the installed OS broken: boots register no Node (PUT /systems/<uuid>/os). */
  osHealthy: boolean;
  /** True while a test has whatever runs on the server ignore graceful shutdowns (PUT /systems/<uuid>/os). */
  ignoresGracefulShutdown: boolean;
}

/**
 * One physical server. sushy tells it about power requests; it waits until sushy has
 * applied them, then boots what the boot device says: the IPA ramdisk (network or
 * virtual media) or the installed OS from disk.
 */
export class SimulatedMachine {
  readonly #options: MachineOptions;
  #os: OsState = 'off';
  /** Bumped on every power transition, so a stale wait or boot notices it lost the race. */
  #generation = 0;
  #pendingOnApplyTime: number | undefined;
  #ramdisk: RamdiskSession | undefined;
  /** The OS on the disk; it outlives power cycles and ramdisk boots. */
  readonly #installedOs: InstalledOs;
  /** A hung OS, or one configured to ignore the power button: graceful shutdowns change nothing. */
  #ignoresGracefulShutdown = false;

  constructor(options: MachineOptions) {
    this.#options = options;
    this.#installedOs = new InstalledOs({
      systemUuid: options.systemUuid,
      systemName: options.name,
      inventory: options.agentServices.inventory,
      cluster: options.workload,
      provisionState: (nodeUuid) => options.ironic.provisionState(nodeUuid),
      records: options.records,
      logger: options.logger,
      etcdBinary: options.etcdBinary,
    });
  }

  get installedOs(): InstalledOs {
    return this.#installedOs;
  }

  get agent(): RamdiskAgent | undefined {
    return this.#ramdisk?.servingAgent;
  }

  status(): MachineStatus {
    return {
      uuid: this.#options.systemUuid,
      name: this.#options.name,
      os: this.#os,
      ramdisk: this.#ramdisk?.phase ?? null,
      nodeUuid: this.#ramdisk?.nodeUuid ?? null,
      agentUrl: this.#options.agentUrl,
      workloadNode: this.#installedOs.nodeName,
      osHealthy: this.#installedOs.healthy,
      ignoresGracefulShutdown: this.#ignoresGracefulShutdown,
    };
  }

  /** From now on, graceful shutdown requests are ignored (true) or shut the server down (false). */
  setIgnoresGracefulShutdown(ignores: boolean): void {
    this.#ignoresGracefulShutdown = ignores;
    this.#log('info', ignores ? 'graceful shutdowns are ignored from now on' : 'graceful shutdowns shut the server down again');
  }

  /**
   * The BMC passes a graceful shutdown (Redfish `GracefulShutdown`: the ACPI power button) on to
   * whatever runs on the server, which decides whether it powers off. Answers whether it does;
   * the BMC leaves the power alone when not. Recorded either way.
   */
  gracefulShutdown(): boolean {
    const shutsDown = !this.#ignoresGracefulShutdown;
    this.#options.records.addGracefulShutdown(this.#options.systemUuid, { os: this.#os, outcome: shutsDown ? 'shut-down' : 'ignored' });
    this.#log('info', shutsDown ? 'graceful shutdown: shutting down' : 'graceful shutdown ignored', { os: this.#os });
    return shutsDown;
  }

  #log(level: 'info' | 'warn' | 'debug', message: string, fields: Record<string, unknown> = {}): void {
    this.#options.logger.log(level, message, { systemUuid: this.#options.systemUuid, ...fields });
  }

  /** Handles one sushy notification; never blocks (sushy waits for our answer while Ironic waits for sushy). */
  notify(system: SushySystem): void {
    const event = powerEventOf(system);
    this.#log('debug', 'sushy notification', { event, os: this.#os, bootDevice: system.boot_device });
    switch (event.kind) {
      case 'power-on-pending':
        if (this.#os === 'off') this.#expectPowerOn(event.applyTime);
        break;
      case 'restart-pending':
        if (this.#os === 'powering-on' && this.#pendingOnApplyTime === event.applyTime) break;
        this.#powerLost('restart');
        this.#expectPowerOn(event.applyTime);
        break;
      case 'power-off-pending': {
        const generation = ++this.#generation;
        void this.#waitForPower('Off', generation);
        break;
      }
      case 'is-on':
        // Power came on without us seeing the request (e.g. the simulator started late).
        if (this.#os === 'off') {
          this.#os = 'powering-on';
          void this.#boot(++this.#generation);
        }
        break;
      case 'is-off':
        if (this.#os !== 'off') this.#powerLost('off');
        break;
    }
  }

  /** Simulator shutdown: everything stops as if the power were cut. */
  halt(): void {
    this.#generation++;
    this.#ramdisk?.stop();
    this.#ramdisk = undefined;
  }

  #expectPowerOn(applyTime: number): void {
    this.#os = 'powering-on';
    this.#pendingOnApplyTime = applyTime;
    void this.#waitForPower('On', ++this.#generation);
  }

  #powerLost(why: 'off' | 'restart'): void {
    this.#generation++;
    // A restart keeps the installed OS's Node; a power off may be the start of deprovisioning.
    if (why === 'off' && this.#os !== 'off') this.#installedOs.poweredOff();
    if (this.#ramdisk !== undefined) this.#log('info', 'ramdisk stopped', { why });
    this.#ramdisk?.stop();
    this.#ramdisk = undefined;
    this.#os = 'off';
    this.#pendingOnApplyTime = undefined;
  }

  /** Polls the BMC until the power state is reached; reading is what makes sushy apply it. */
  async #waitForPower(target: 'On' | 'Off', generation: number): Promise<void> {
    const deadline = Date.now() + POWER_WAIT_TIMEOUT_MS;
    while (generation === this.#generation && Date.now() < deadline) {
      try {
        const { powerState } = await this.#options.redfish.getSystem(this.#options.systemUuid);
        if (generation !== this.#generation) return;
        if (powerState === target) {
          if (target === 'On') await this.#boot(generation);
          else this.#powerLost('off');
          return;
        }
      } catch (error) {
        this.#log('warn', 'could not read the power state', { error: (error as Error).message });
      }
      await sleep(POWER_POLL_MS);
    }
    if (generation === this.#generation) this.#log('warn', `power never became ${target}`);
  }

  /**
   * The Ironic the kernel command line sends the ramdisk to. Ironic names itself (`ipa-api-url`)
   * for cleaning and deployment, but only its callback (`ipa-inspection-callback-url`) for
   * inspection; IPA posts there, and the simulator, which looks the node up first, asks that Ironic.
   */
  #ironicFor(parameters: RamdiskParameters): RamdiskIronic {
    const callbackBase = parameters.inspectionCallbackUrl?.replace(/\/v1\/continue_inspection\/?$/, '');
    const apiUrl = parameters.apiUrl ?? (callbackBase === parameters.inspectionCallbackUrl ? undefined : callbackBase);
    return apiUrl !== undefined && this.#options.ironicAt !== undefined ? this.#options.ironicAt(apiUrl) : this.#options.ironic;
  }

  async #boot(generation: number): Promise<void> {
    await sleep(this.#options.bootDelayMs);
    if (generation !== this.#generation) return;
    let bootDevice: string | undefined;
    let bootMode: string | undefined;
    try {
      ({ bootDevice, bootMode } = await this.#options.redfish.getSystem(this.#options.systemUuid));
    } catch (error) {
      this.#log('warn', 'could not read the boot device', { error: (error as Error).message });
      return;
    }
    if (generation !== this.#generation) return;
    let into: BootRecord['into'] = bootsIntoDisk(bootDevice) ? 'disk' : bootDevice === 'BiosSetup' ? 'firmware' : 'ramdisk';
    let parameters: RamdiskParameters = {};
    let media: VirtualMediaBootRecord | undefined;
    if (into === 'ramdisk' && bootDevice === 'Cd') {
      const mode = firmwareBootMode(bootMode, this.#options.agentServices.inventory.boot.current_boot_mode);
      try {
        const cd = await bootVirtualCd(this.#options.redfish, this.#options.systemUuid, mode);
        parameters = cd.parameters;
        media = mediaRecord(cd);
        // A live ISO runs from the CD; the disk is neither read nor written.
        if (cd.liveOs) into = 'live-os';
      } catch (error) {
        if (generation !== this.#generation) return;
        // A real server would sit in its firmware's boot menu.
        this.#os = 'firmware';
        this.#pendingOnApplyTime = undefined;
        this.#options.records.addBoot(this.#options.systemUuid, { bootDevice, into: 'firmware', error: (error as Error).message });
        this.#log('warn', 'nothing to boot from the virtual CD', { error: (error as Error).message });
        return;
      }
      if (generation !== this.#generation) return;
    }
    this.#os = into;
    this.#pendingOnApplyTime = undefined;
    this.#options.records.addBoot(this.#options.systemUuid, { bootDevice: bootDevice ?? 'None', into, ...(media ? { media } : {}) });
    this.#log('info', 'booted', { bootDevice, into, ...(media ? { media } : {}) });
    if (into === 'disk') this.#installedOs.bootedFromDisk();
    if (into === 'ramdisk') {
      this.#ramdisk = new RamdiskSession({
        services: {
          ...this.#options.agentServices,
          disk: this.#installedOs,
          power: {
            off: () => this.#options.redfish.reset(this.#options.systemUuid, 'ForceOff'),
            restart: () => this.#options.redfish.reset(this.#options.systemUuid, 'ForceRestart'),
          },
        },
        ironic: this.#ironicFor(parameters),
        parameters,
        macs: this.#options.macs,
        agentUrl: this.#options.agentUrl,
        agentVersion: this.#options.agentVersion,
        lookupIntervalMs: this.#options.lookupIntervalMs,
        heartbeatIntervalMs: this.#options.heartbeatIntervalMs,
        minHeartbeatIntervalMs: this.#options.minHeartbeatIntervalMs,
        heartbeatErrorRetryMs: this.#options.heartbeatErrorRetryMs,
      });
      this.#ramdisk.start();
    }
  }
}
