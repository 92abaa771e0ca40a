import { setTimeout as sleep } from 'node:timers/promises';
import { RamdiskAgent, type AgentServices, type ShutdownReason } from './agent.ts';
import { Heartbeater } from './heartbeat.ts';
import { buildInspectionData } from './inspection-data.ts';
import { nextLookupDelayMs } from './lookup-backoff.ts';
import type { LookupAnswer, RamdiskIronic } from './ironic-api.ts';
import type { RamdiskParameters } from './ramdisk-params.ts';

/** Ironic generates 43-character tokens; "******" means one was already handed out. */
const MIN_TOKEN_LENGTH = 32;
/** Provision states Ironic holds only while it finishes the power action that booted us. */
const TRANSIENT_STATES = new Set(['inspecting', 'cleaning', 'deploying', 'rescuing', 'servicing']);
const SETTLE_POLL_MS = 250;
const SETTLE_TIMEOUT_MS = 60_000;
/** Ironic's default [api]ramdisk_heartbeat_timeout, used when lookup does not say. */
const DEFAULT_HEARTBEAT_TIMEOUT_S = 300;

export interface RamdiskOptions {
  services: AgentServices;
  ironic: RamdiskIronic;
  /** From the kernel command line of a virtual media boot; empty for a network boot. */
  parameters: RamdiskParameters;
  macs: string[];
  agentUrl: string;
  agentVersion: string;
  lookupIntervalMs: number;
  heartbeatIntervalMs: number | undefined;
  minHeartbeatIntervalMs: number;
  heartbeatErrorRetryMs: number;
}

export type RamdiskPhase = 'looking-up' | 'inspected' | 'heartbeating' | 'locked-down' | 'rescue' | 'halted' | 'stopped';

/**
 * One boot of the IPA ramdisk: look the node up, then either post the inventory
 * (inspection) or run the agent and heartbeat until the power goes.
 */
export class RamdiskSession {
  readonly #options: RamdiskOptions;
  #phase: RamdiskPhase = 'looking-up';
  #agent: RamdiskAgent | undefined;
  #heartbeater: Heartbeater | undefined;
  #nodeUuid: string | undefined;
  #lastHeartbeatProblem: string | undefined;

  constructor(options: RamdiskOptions) {
    this.#options = options;
  }

  get phase(): RamdiskPhase {
    return this.#phase;
  }

  get nodeUuid(): string | undefined {
    return this.#nodeUuid;
  }

  /** The agent while its API is reachable (not after lockdown, rescue or power off). */
  get servingAgent(): RamdiskAgent | undefined {
    return this.#phase === 'heartbeating' ? this.#agent : undefined;
  }

  start(): void {
    void this.#run().catch((error: unknown) => {
      this.#log('error', 'ramdisk failed', { error: (error as Error).message });
    });
  }

  stop(): void {
    this.#heartbeater?.stop();
    this.#phase = 'stopped';
  }

  get #stopped(): boolean {
    return this.#phase === 'stopped';
  }

  #log(level: 'info' | 'warn' | 'error' | 'debug', message: string, fields: Record<string, unknown> = {}): void {
    this.#options.services.logger.log(level, message, { systemUuid: this.#options.services.systemUuid, ...fields });
  }

  async #run(): Promise<void> {
    const found = await this.#lookup();
    if (found === undefined) return;
    const { answer, token } = found;
    this.#nodeUuid = answer.node.uuid;
    const state = await this.#settledProvisionState(answer.node.uuid);
    if (this.#stopped) return;
    if (state === 'inspect wait') {
      await this.#inspect(answer.node.uuid, { recordRefusal: true });
      return;
    }
    if (state === undefined && this.#options.parameters.inspectionCallbackUrl !== undefined) {
      // The kernel command line says this boot is for inspection (what IPA goes by): post until Ironic,
      // maybe still finishing the power action that booted us, takes it.
      await this.#inspectOnceAwaited(answer.node.uuid);
      return;
    }
    // Without the state (e.g. no API credentials) do what IPA with an inspection URL does: try,
    // and carry on as an agent if Ironic says the node is not being inspected.
    if (state === undefined && (await this.#inspect(answer.node.uuid, { recordRefusal: false }))) return;
    if (!this.#stopped) this.#startAgent(answer, token);
  }

  /**
   * IPA's lookup loop: retried until Ironic knows a node with our MACs in a state that expects a
   * ramdisk, backing off after a minute as IPA does. Like IPA, a token from lookup wins; "******" means Ironic pre-generated one and put
   * it on the kernel command line (virtual media), which only helps if we booted with it.
   */
  async #lookup(): Promise<{ answer: LookupAnswer; token: string } | undefined> {
    const fromCommandLine = this.#options.parameters.agentToken;
    const startedAt = Date.now();
    let lastProblem = '';
    let delayMs: number | undefined;
    while (!this.#stopped) {
      let problem: string;
      try {
        const reply = await this.#options.ironic.lookup(this.#options.macs);
        const looked = reply.body?.config.agent_token;
        const token = typeof looked === 'string' && looked.length >= MIN_TOKEN_LENGTH ? looked : fromCommandLine;
        if (reply.status === 200 && reply.body !== undefined && token !== undefined) {
          this.#log('info', 'lookup succeeded', {
            nodeUuid: reply.body.node.uuid,
            tokenFrom: token === looked ? 'lookup' : 'kernel command line',
          });
          return { answer: reply.body, token };
        }
        problem =
          reply.status === 200
            ? 'lookup returned no usable agent token (already handed out) and the kernel command line has none; retrying'
            : `lookup: HTTP ${reply.status} ${reply.error ?? ''}`.trim();
      } catch (error) {
        problem = `lookup failed: ${(error as Error).message}`;
      }
      if (problem !== lastProblem) this.#log('debug', problem);
      lastProblem = problem;
      delayMs = nextLookupDelayMs({ startingIntervalMs: this.#options.lookupIntervalMs, previousDelayMs: delayMs, lookingUpForMs: Date.now() - startedAt });
      await sleep(delayMs);
    }
    return undefined;
  }

  /**
   * A real ramdisk boots for minutes, so Ironic is always waiting for it. The simulated one
   * can come up while Ironic still finishes the power action, so wait for that to settle.
   */
  async #settledProvisionState(nodeUuid: string): Promise<string | undefined> {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      let state: string | undefined;
      try {
        state = await this.#options.ironic.provisionState(nodeUuid);
      } catch (error) {
        this.#log('warn', 'could not read the provision state', { error: (error as Error).message });
        return undefined;
      }
      if (state === undefined || !TRANSIENT_STATES.has(state) || Date.now() > deadline || this.#stopped) return state;
      await sleep(SETTLE_POLL_MS);
    }
  }

  async #inspectOnceAwaited(nodeUuid: string): Promise<void> {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    while (!this.#stopped && Date.now() < deadline) {
      if (await this.#inspect(nodeUuid, { recordRefusal: false })) return;
      await sleep(this.#options.lookupIntervalMs);
    }
    if (!this.#stopped) await this.#inspect(nodeUuid, { recordRefusal: true });
  }

  /** Posts the inventory; true when Ironic took it. */
  async #inspect(nodeUuid: string, options: { recordRefusal: boolean }): Promise<boolean> {
    const { services } = this.#options;
    let status = 0;
    let error: string | undefined;
    try {
      const reply = await this.#options.ironic.continueInspection(nodeUuid, buildInspectionData(this.#inventory()));
      status = reply.status;
      error = reply.error;
    } catch (failure) {
      error = (failure as Error).message;
    }
    const accepted = status === 202 || status === 200;
    if (!accepted && !options.recordRefusal) return false;
    services.records.addInspection(services.systemUuid, {
      nodeUuid,
      accepted,
      httpStatus: status,
      ...(error === undefined ? {} : { error }),
    });
    this.#log(accepted ? 'info' : 'warn', 'inspection data posted', { nodeUuid, httpStatus: status, error });
    // Ironic powers the server off after processing the data; until then the ramdisk just idles.
    if (accepted && !this.#stopped) this.#phase = 'inspected';
    return accepted;
  }

  /** IPA reports the NIC named by BOOTIF as the one it booted from. */
  #inventory(): AgentServices['inventory'] {
    const { inventory } = this.#options.services;
    const mac = this.#options.parameters.bootInterfaceMac;
    return mac === undefined ? inventory : { ...inventory, boot: { ...inventory.boot, pxe_interface: mac } };
  }

  #startAgent(answer: LookupAnswer, token: string): void {
    const { config, node } = answer;
    const agent = new RamdiskAgent({
      services: this.#options.services,
      token,
      node,
      onCommandFinished: () => this.#heartbeater?.force(),
      onShutdown: (reason) => this.#shutdown(reason),
    });
    agent.md5Allowed = config.agent_md5_checksum_enable ?? true;
    const timeoutMs = (config.heartbeat_timeout ?? DEFAULT_HEARTBEAT_TIMEOUT_S) * 1000;
    const heartbeater = new Heartbeater({
      minIntervalMs: this.#options.minHeartbeatIntervalMs,
      errorRetryMs: this.#options.heartbeatErrorRetryMs,
      // IPA waits 0.3-0.6 of the heartbeat timeout between heartbeats.
      nextIntervalMs: () => this.#options.heartbeatIntervalMs ?? timeoutMs * (0.3 + 0.3 * Math.random()),
      send: () => this.#heartbeat(node.uuid, agent.token),
      onError: (error) => this.#log('warn', 'heartbeat failed', { error: (error as Error).message }),
    });
    this.#agent = agent;
    this.#heartbeater = heartbeater;
    this.#phase = 'heartbeating';
    heartbeater.start();
  }

  async #heartbeat(nodeUuid: string, token: string): Promise<boolean> {
    const reply = await this.#options.ironic.heartbeat(nodeUuid, {
      callback_url: this.#options.agentUrl,
      agent_token: token,
      agent_version: this.#options.agentVersion,
    });
    if (reply.status === 202) {
      this.#lastHeartbeatProblem = undefined;
      this.#log('debug', 'heartbeat accepted', { nodeUuid });
      return true;
    }
    // Ironic wipes the token when it cuts the power; until the BMC applies that, repeats are noise.
    const problem = `${reply.status} ${reply.error ?? ''}`;
    this.#log(problem === this.#lastHeartbeatProblem ? 'debug' : 'warn', 'heartbeat rejected', {
      nodeUuid,
      httpStatus: reply.status,
      error: reply.error,
    });
    this.#lastHeartbeatProblem = problem;
    return false;
  }

  #shutdown(reason: ShutdownReason): void {
    if (this.#stopped) return;
    this.#heartbeater?.stop();
    this.#phase = reason === 'lockdown' ? 'locked-down' : reason === 'rescue' ? 'rescue' : 'halted';
    this.#log('info', 'agent stopped', { reason });
  }
}
