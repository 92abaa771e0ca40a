/**
 * What a provisioner call tells the state handler. Three outcomes, never a
 * boolean soup: the operation finished, it is still going (poll again), or it
 * failed in a way the user must see (recorded in status with backoff).
 * Transient trouble (Ironic unreachable, 409 locks, 503) is thrown as
 * TransientProvisionerError instead and becomes a rate-limited requeue.
 */
export type ProvisionerResult<T = undefined> =
  | { kind: 'done'; value: T }
  | Busy
  | { kind: 'failed'; message: string };

/**
 * Still going. `started` says this very call began the operation (BMO's `started`): the
 * caller records what it asked for, e.g. drops the inspect annotation or saves the RAID
 * settings it handed to prepare, so the next call does not start it again.
 */
export interface Busy {
  kind: 'busy';
  afterMs: number;
  reason: string;
  started?: boolean;
  /**
   * Only a change the back end's node list shows (a provision state, power, maintenance or
   * fault change) ends this wait, so while that list is watched the host need not poll itself.
   */
  awaitsNodeChange?: boolean;
}

export interface BusyOptions {
  started?: boolean;
  awaitsNodeChange?: boolean;
}

/**
 * Register's answer. While the node is still on its way to manageable, `busy` names it: BMO
 * records the node in the host's status as soon as it exists, not once it is verified.
 */
export type RegisterResult = Exclude<ProvisionerResult<{ nodeId: string }>, Busy> | (Busy & { nodeId?: string });

export function done(): ProvisionerResult;
export function done<T>(value: T): ProvisionerResult<T>;
export function done<T>(value?: T): ProvisionerResult<T | undefined> {
  return { kind: 'done', value };
}

export function busy(afterMs: number, reason: string, options: BusyOptions = {}): Busy {
  return {
    kind: 'busy',
    afterMs,
    reason,
    ...(options.started ? { started: true } : {}),
    ...(options.awaitsNodeChange ? { awaitsNodeChange: true } : {}),
  };
}

export function failed(message: string): { kind: 'failed'; message: string } {
  return { kind: 'failed', message };
}

/** The back end cannot be reached or is momentarily refusing work; retry without recording an error. */
export class TransientProvisionerError extends Error {
  override readonly name = 'TransientProvisionerError';
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: { cause?: unknown; retryAfterMs?: number } = {}) {
    super(message, { cause: options.cause });
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * BMO's ErrNeedsPreprovisioningImage: the host is in a state that boots the ramdisk, and no
 * PreprovisioningImage the provisioner can use was given, so nothing can go on until one is ready.
 */
export class NeedsPreprovisioningImageError extends Error {
  override readonly name = 'NeedsPreprovisioningImageError';

  constructor() {
    super('no suitable Preprovisioning image available');
  }
}

/** Registration must run again before this call makes sense (e.g. the node vanished from Ironic). */
export class NeedsRegistrationError extends Error {
  override readonly name = 'NeedsRegistrationError';
}
