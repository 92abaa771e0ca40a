import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { agentErrors, toAgentError, type AgentError, type SerializedAgentError } from './agent-errors.ts';
import { extensions as defaultExtensions } from './commands/registry.ts';
import type { CachedNode, CommandParams, Extension } from './commands/types.ts';
import type { DiskEvents } from './installed-os.ts';
import type { Inventory } from './inventory-types.ts';
import type { Logger } from './log.ts';
import type { RecordStore } from './records.ts';

export type CommandStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CLEAN_VERSION_MISMATCH';

/** A command result exactly as IPA serialises it in /v1/commands/. */
export interface SerializedCommand {
  id: string;
  command_name: string;
  command_status: CommandStatus;
  command_error: SerializedAgentError | null;
  command_result: unknown;
}

interface CommandRecord extends SerializedCommand {
  /** Settles when the command leaves RUNNING (for `?wait=true`). */
  finished: Promise<void>;
}

/** What the agent can do to the world: the server it runs on, and where it reports. */
export interface AgentServices {
  systemUuid: string;
  inventory: Inventory;
  records: RecordStore;
  logger: Logger;
  power: { off(): Promise<void>; restart(): Promise<void> };
  /** The disks outlive the ramdisk: what is written to or wiped from them reaches the installed OS. */
  disk: DiskEvents;
  /** How long every asynchronous command "works" before finishing. */
  commandDelayMs: number;
  imageDownload: { retries: number; retryIntervalMs: number };
}

/** Why an agent stops while the server keeps power: IPA locked down or left for rescue, or the OS is going down. */
export type ShutdownReason = 'lockdown' | 'rescue' | 'halt';

function serialize(record: CommandRecord): SerializedCommand {
  const { id, command_name, command_status, command_error, command_result } = record;
  return { id, command_name, command_status, command_error, command_result };
}

/**
 * The IPA process of one ramdisk boot: its agent token, the node it looked up, and
 * its command history. A reboot starts a new agent with an empty history, like IPA.
 */
export class RamdiskAgent {
  readonly services: AgentServices;
  readonly token: string;
  node: CachedNode | undefined;
  /** Ironic's lookup config `agent_md5_checksum_enable`. */
  md5Allowed = true;
  partitionUuids: Record<string, unknown> | undefined;
  cachedImageId: string | undefined;
  readonly #extensions: Readonly<Record<string, Extension>>;
  readonly #commands: CommandRecord[] = [];
  readonly #onCommandFinished: () => void;
  readonly #onShutdown: (reason: ShutdownReason) => void;

  constructor(options: {
    services: AgentServices;
    token: string;
    node?: CachedNode;
    onCommandFinished?: () => void;
    onShutdown?: (reason: ShutdownReason) => void;
    extensions?: Readonly<Record<string, Extension>>;
  }) {
    this.services = options.services;
    this.token = options.token;
    this.node = options.node;
    this.#extensions = options.extensions ?? defaultExtensions;
    this.#onCommandFinished = options.onCommandFinished ?? (() => {});
    this.#onShutdown = options.onShutdown ?? (() => {});
  }

  validateToken(token: string | null): boolean {
    return token !== null && token !== '' && token === this.token;
  }

  listCommands(): SerializedCommand[] {
    return this.#commands.map(serialize);
  }

  /** Names of the commands run so far, oldest first (for logs). */
  commandHistory(): string[] {
    return this.#commands.map((command) => command.command_name);
  }

  async waitFor(id: string): Promise<SerializedCommand | undefined> {
    const record = this.#commands.find((command) => command.id === id);
    if (record === undefined) return undefined;
    await record.finished;
    return serialize(record);
  }

  getCommand(id: string): SerializedCommand | undefined {
    const record = this.#commands.find((command) => command.id === id);
    return record === undefined ? undefined : serialize(record);
  }

  /** Ends this agent once the current HTTP reply is out (lockdown, rescue). */
  shutdownAfterReply(reason: ShutdownReason): void {
    setImmediate(() => this.#onShutdown(reason));
  }

  /**
   * IPA's execute_command. Throws AgentErrors flagged `invalidContent` (unknown
   * command, bad params, busy agent), which the API returns as HTTP errors;
   * every other failure is recorded as a FAILED command.
   */
  async execute(name: string, params: CommandParams, options: { wait?: boolean } = {}): Promise<SerializedCommand> {
    const dot = name.indexOf('.');
    if (dot <= 0 || dot === name.length - 1) {
      throw agentErrors.invalidCommand('Command name must be of the form <extension>.<name>');
    }
    const last = this.#commands.at(-1);
    if (last !== undefined && last.command_status === 'RUNNING') throw agentErrors.agentIsBusy(last.command_name);
    const extension = this.#extensions[name.slice(0, dot)];
    if (extension === undefined) throw agentErrors.extensionNotFound(name.slice(0, dot));
    const commandName = name.slice(dot + 1);
    const definition = extension[commandName];
    if (definition === undefined) throw agentErrors.invalidCommand(`Unknown command: ${commandName}`);

    const record = this.#newRecord(commandName);
    this.services.logger.info('agent command', { systemUuid: this.services.systemUuid, command: name, mode: definition.mode });
    if (definition.mode === 'sync') {
      await this.#runSync(record, () => definition.run(this, params));
    } else {
      try {
        definition.validate?.(this, params);
      } catch (error) {
        const agentError = toAgentError(error);
        if (agentError.invalidContent) throw agentError;
        this.#fail(record, agentError);
        this.#commands.push(record);
        return serialize(record);
      }
      this.#commands.push(record);
      this.#runAsync(record, () => definition.run(this, params));
      if (options.wait === true) await record.finished;
      return serialize(record);
    }
    this.#commands.push(record);
    return serialize(record);
  }

  #newRecord(commandName: string): CommandRecord {
    return {
      id: randomUUID(),
      command_name: commandName,
      command_status: 'RUNNING',
      command_error: null,
      command_result: null,
      finished: Promise.resolve(),
    };
  }

  #fail(record: CommandRecord, error: AgentError): void {
    record.command_status = error.type === 'VersionMismatch' ? 'CLEAN_VERSION_MISMATCH' : 'FAILED';
    record.command_error = error.serialize();
    record.command_result = null;
  }

  async #runSync(record: CommandRecord, run: () => unknown): Promise<void> {
    try {
      const result = await run();
      record.command_result = typeof result === 'string' ? { result } : (result ?? null);
      record.command_status = 'SUCCEEDED';
    } catch (error) {
      const agentError = toAgentError(error);
      if (agentError.invalidContent) throw agentError;
      this.#fail(record, agentError);
    }
  }

  #runAsync(record: CommandRecord, run: () => unknown): void {
    record.finished = (async () => {
      try {
        await sleep(this.services.commandDelayMs);
        const result = await run();
        record.command_result =
          typeof result === 'string' ? { result: `${record.command_name}: ${result}` } : (result ?? null);
        record.command_status = 'SUCCEEDED';
      } catch (error) {
        this.#fail(record, toAgentError(error));
        this.services.logger.warn('agent command failed', {
          systemUuid: this.services.systemUuid,
          command: record.command_name,
          error: record.command_error,
        });
      } finally {
        // IPA heartbeats right after an asynchronous command ends so Ironic notices quickly.
        this.#onCommandFinished();
      }
    })();
  }
}
