import { describe, expect, it } from '@jest/globals';
import { bmcNotAnswering } from './bmc-not-answering.ts';

// Ironic 39's own messages, as its conductor wrote them with the stack's sushy-tools stopped.
const REDFISH_DOWN = 'Redfish connection failed for node 250a07b6-ae30-4341-b805-d97aadf1a059: Unable to connect to http://127.0.0.1:37681/redfish/v1/. Error: HTTPConnectionPool(host=\'127.0.0.1\', port=37681): Max retries exceeded';

describe('bmcNotAnswering', () => {
  it("reports Ironic's power failure fault with its maintenance reason", () => {
    const reason = "During sync_power_state, max retries exceeded for node X, node state None does not match expected state 'power on'.";
    expect(bmcNotAnswering({ fault: 'power failure', maintenance_reason: reason, last_error: null })).toBe(reason);
  });

  it('reports a last error that says the BMC could not be reached', () => {
    expect(bmcNotAnswering({ fault: null, maintenance_reason: null, last_error: `Failed to change power state to 'power on'. Error: ${REDFISH_DOWN}` }))
      .toContain('Redfish connection failed');
    // Ironic's ipmitool driver, its IPMI BMC stopped mid-deploy (e2e/faults/ipmi-bmc-outage).
    const ipmiDown = 'Failed to prepare to deploy: IPMI call failed: power status.';
    expect(bmcNotAnswering({ fault: null, maintenance_reason: null, last_error: ipmiDown })).toBe(ipmiDown);
    // Redfish, its BMC stopped before an inspection (e2e/faults/bmc-outage).
    const inspection = `Inspection clean up failed: unable to power off the node: ${REDFISH_DOWN}`;
    expect(bmcNotAnswering({ fault: null, maintenance_reason: null, last_error: inspection })).toBe(inspection);
  });

  it('says nothing for other errors, other faults or none', () => {
    expect(bmcNotAnswering({ fault: null, maintenance_reason: null, last_error: 'Image download failed: checksum mismatch' })).toBeUndefined();
    expect(bmcNotAnswering({ fault: 'clean failure', maintenance_reason: 'cleaning failed', last_error: null })).toBeUndefined();
    expect(bmcNotAnswering({ fault: null, maintenance_reason: null, last_error: null })).toBeUndefined();
  });
});
