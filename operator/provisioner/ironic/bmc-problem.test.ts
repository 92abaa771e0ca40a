import { describe, expect, it } from '@jest/globals';
import { bmcProblemOf } from './bmc-problem.ts';

// Ironic 39's own messages, as its conductor wrote them with the stack's sushy-tools stopped.
const REDFISH_DOWN = 'Redfish connection failed for node 250a07b6-ae30-4341-b805-d97aadf1a059: Unable to connect to http://127.0.0.1:37681/redfish/v1/. Error: HTTPConnectionPool(host=\'127.0.0.1\', port=37681): Max retries exceeded';
// And with the stack's sushy-tools answering a wrong password (e2e/faults/deletion-deadline).
const REDFISH_REFUSED = 'Failed to get power state for node 4cd24c5b-352a-4c6f-a903-f3c6d8889355. Error: Redfish exception occurred. Error: HTTP GET http://127.0.0.1:21165/redfish/v1/Systems/5eb0a3c0-7a1d-4c55-9b1e-00000000005f returned code 401. Base.1.0.GeneralError: Incorrect username or password';

const notAnswering = (detail: string) => ({ kind: 'not answering', detail });

describe('bmcProblemOf', () => {
  it("reports Ironic's power failure fault with its maintenance reason", () => {
    const reason = "During sync_power_state, max retries exceeded for node X, node state None does not match expected state 'power on'.";
    expect(bmcProblemOf({ fault: 'power failure', maintenance_reason: reason, last_error: null })).toEqual(notAnswering(reason));
  });

  it('reports a last error that says the BMC could not be reached', () => {
    const powerOn = `Failed to change power state to 'power on'. Error: ${REDFISH_DOWN}`;
    expect(bmcProblemOf({ fault: null, maintenance_reason: null, last_error: powerOn })).toEqual(notAnswering(powerOn));
    // Ironic's ipmitool driver, its IPMI BMC stopped mid-deploy (e2e/faults/ipmi-bmc-outage).
    const ipmiDown = 'Failed to prepare to deploy: IPMI call failed: power status.';
    expect(bmcProblemOf({ fault: null, maintenance_reason: null, last_error: ipmiDown })).toEqual(notAnswering(ipmiDown));
    // Redfish, its BMC stopped before an inspection (e2e/faults/bmc-outage).
    const inspection = `Inspection clean up failed: unable to power off the node: ${REDFISH_DOWN}`;
    expect(bmcProblemOf({ fault: null, maintenance_reason: null, last_error: inspection })).toEqual(notAnswering(inspection));
  });

  it('tells a BMC that answers and refuses the credentials from one that does not answer', () => {
    expect(bmcProblemOf({ fault: null, maintenance_reason: null, last_error: REDFISH_REFUSED }))
      .toEqual({ kind: 'refuses credentials', detail: REDFISH_REFUSED });
    const syncRefused = `During sync_power_state, max retries exceeded for node X. Error: HTTP GET http://127.0.0.1:1/redfish/v1/Systems/x returned code 403.`;
    expect(bmcProblemOf({ fault: 'power failure', maintenance_reason: syncRefused, last_error: null })?.kind).toBe('refuses credentials');
  });

  it("ignores the power sync's message left in last_error once Ironic lifted the fault", () => {
    // Ironic keeps it there after its power failure recovery when node history is off, as Metal3's
    // ironic-image runs it (Ironic 39 clears it on the next good power sync only with history on).
    const syncFailed = "During sync_power_state, max retries exceeded for node X, node state None does not match expected state 'power on'. Updating DB state to 'None' Switching node to maintenance mode. Error: IPMI call failed: power status.";
    expect(bmcProblemOf({ fault: null, maintenance_reason: null, last_error: syncFailed })).toBeUndefined();
    expect(bmcProblemOf({ fault: 'power failure', maintenance_reason: syncFailed, last_error: syncFailed })).toEqual(notAnswering(syncFailed));
  });

  it('says nothing for other errors, other faults or none', () => {
    expect(bmcProblemOf({ fault: null, maintenance_reason: null, last_error: 'Image download failed: checksum mismatch' })).toBeUndefined();
    expect(bmcProblemOf({ fault: 'clean failure', maintenance_reason: 'cleaning failed', last_error: null })).toBeUndefined();
    expect(bmcProblemOf({ fault: null, maintenance_reason: null, last_error: null })).toBeUndefined();
  });
});
