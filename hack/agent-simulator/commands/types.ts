import type { RamdiskAgent } from '../agent.ts';

export type CommandParams = Record<string, unknown>;

/**
 * One agent command. Sync commands answer in the HTTP response; async ones answer
 * RUNNING at once and finish in the background, as in IPA.
 */
export interface CommandDefinition {
  mode: 'sync' | 'async';
  run(agent: RamdiskAgent, params: CommandParams): unknown;
  /** IPA's command validators: run before an async command starts; invalid-content errors become HTTP 400. */
  validate?(agent: RamdiskAgent, params: CommandParams): void;
}

/** An IPA extension: its commands by name (the part after the dot). */
export type Extension = Readonly<Record<string, CommandDefinition>>;

/** The node dict Ironic sends with step commands and returns on lookup (only what the simulator reads). */
export interface CachedNode {
  uuid: string;
  properties?: Record<string, unknown>;
  instance_info?: Record<string, unknown>;
  driver_internal_info?: Record<string, unknown>;
  [field: string]: unknown;
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
