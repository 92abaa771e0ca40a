// What Ironic 39 shows when a node's BMC stops answering. A conductor working on the node keeps
// its lock while each BMC call fails (about 2.5 minutes per Redfish call with Ironic's default
// connection retries), then records the failure in last_error ("Redfish connection failed for
// node ...", "IPMI call failed: ..."); an idle node's power sync gives up after its retries and
// sets maintenance with the `power failure` fault. Either clears once Ironic reaches the BMC again
// (the next operation resets last_error; power failure recovery lifts the fault).
import type { Node } from '../../../ironic-client/index.ts';

const BMC_CONNECTION_FAILURE = /Redfish connection failed|Unable to connect to|IPMI call failed|Failed to get power state/;

/** Ironic's own words for the BMC not answering, from the node as read; undefined when it says nothing of it. */
export function bmcNotAnswering(node: Pick<Node, 'fault' | 'maintenance_reason' | 'last_error'>): string | undefined {
  if (node.fault === 'power failure') return node.maintenance_reason || 'Ironic put the node in maintenance for a power failure';
  const error = node.last_error ?? '';
  return BMC_CONNECTION_FAILURE.test(error) ? error : undefined;
}
