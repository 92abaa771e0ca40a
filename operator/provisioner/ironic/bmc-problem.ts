// What Ironic 39 shows when a node's BMC stops answering. A conductor working on the node keeps
// its lock while each BMC call fails (about 2.5 minutes per Redfish call with Ironic's default
// connection retries), then records the failure in last_error ("Redfish connection failed for
// node ...", "IPMI call failed: ..."); an idle node's power sync gives up after its retries and
// sets maintenance with the `power failure` fault. Either clears once Ironic reaches the BMC again
// (the next operation resets last_error; power failure recovery lifts the fault). The power
// sync's own message stays in last_error after that recovery unless Ironic keeps node history
// (Metal3's ironic-image turns it off), so it counts only while the fault is set. A BMC that
// answers but refuses the credentials fails the same calls, with its HTTP 401 or 403 in the words.
import type { Node } from '../../../ironic-client/index.ts';
import type { BmcProblem } from '../provisioner.ts';

const BMC_CONNECTION_FAILURE = /Redfish connection failed|Unable to connect to|IPMI call failed|Failed to get power state/;
/** The power sync giving up (Ironic's handle_sync_power_state_max_retries_exceeded). */
const POWER_SYNC_FAILURE = /^During sync_power_state/;
/** sushy's words for a Redfish answer of 401 or 403, and sushy-tools' own. */
const CREDENTIALS_REFUSED = /returned code 40[13]\b|Incorrect username or password/;

/** Ironic's own words for the BMC failing it, from the node as read; undefined when it says nothing of it. */
export function bmcProblemOf(node: Pick<Node, 'fault' | 'maintenance_reason' | 'last_error'>): BmcProblem | undefined {
  const error = node.last_error ?? '';
  let detail: string | undefined;
  if (node.fault === 'power failure') detail = node.maintenance_reason || 'Ironic put the node in maintenance for a power failure';
  else if (BMC_CONNECTION_FAILURE.test(error) && !POWER_SYNC_FAILURE.test(error)) detail = error;
  if (detail === undefined) return undefined;
  return { kind: CREDENTIALS_REFUSED.test(detail) ? 'refuses credentials' : 'not answering', detail };
}
