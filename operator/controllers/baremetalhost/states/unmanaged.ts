import { complete, continueAfter } from '../action.ts';
import { DELAYS } from '../delays.ts';
import { hasBMCDetails } from '../host.ts';
import type { StateHandler } from './handler.ts';

/** Waits (slow poll, or a spec change) for BMC details. */
export const handleUnmanaged: StateHandler = async (host) =>
  hasBMCDetails(host) ? complete('registering') : continueAfter(DELAYS.slowPollMs);
