import { complete } from '../action.ts';
import { normal } from '../events.ts';
import { hasBMCDetails } from '../host.ts';
import { note, publish } from '../state-context.ts';
import type { StateHandler } from './handler.ts';

/** A new host: register it, or leave it unmanaged until it has BMC details. */
export const handleNone: StateHandler = async (host, context) => {
  if (hasBMCDetails(host)) return complete('registering');
  publish(context, normal('Discovered', 'Discovered host with no BMC details'));
  host.status.operationalStatus = 'discovered';
  note(context, { metric: 'hostUnmanaged' });
  return complete('unmanaged');
};
