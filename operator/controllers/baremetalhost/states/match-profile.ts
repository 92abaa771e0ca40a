import { complete } from '../action.ts';
import type { StateHandler } from './handler.ts';

/** A legacy state old objects may still be in; it has nothing left to do. */
export const handleMatchProfile: StateHandler = async (host) => {
  host.status.errorCount = 0;
  return complete('preparing');
};
