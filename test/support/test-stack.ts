import { buildPromtool } from '../../hack/prometheus/index.ts';
import { readState } from '../../hack/stack/state.ts';
import { stackDown, stackUp } from '../../hack/stack/stack.ts';
import { installControllerIdentities } from './controller-identities.ts';
import { Kubectl } from './kubectl.ts';
import { installIpamCrds } from './ipam-crds.ts';
import { installProviderCrds } from './provider-crds.ts';

// Each test file owns its emulated servers; files that run side by side never share one.
// e2e: BareMetalHost redfish-lifecycle 0-2 and the IPMI BMC (ironic-outage,
// run alone, borrows 0-1), virtual media 3, hardware labels 4, Cluster API 5-11, day-2 inspection 12-14
// (ironic-db-loss, run alone, borrows them) and errors 15, Cluster API data templates and IPAM
// 16-19, remediation 20-23, day-2 power 29-30 and detach 31-32. Integration: provisioner redfish
// 24-25, stack ironic-lifecycle 26-27, installed OS 28, BareMetalHost lifecycle 33, ironic-client
// node-locked 34 and redfish-lifecycle 35. e2e again: day-2 fidelity 38-40, IPMI, Ironic auth and
// leader election 41-43, provisioning limit 44-48, inspectionMode fast 36, day-2 power fallback,
// errors and locks 49-51, faults: operator kills 52-59, operator freeze 37, provider kills 60-63, firmware settings
// and components 64-66; BMC outage 68-69 (their BMC is the isolated sushy-tools, ISOLATED_BMC_SERVERS,
// which that file stops: an outage for them alone) and IPMI BMC outage 67 (its IPMI BMC is the
// isolated one, ISOLATED_IPMI_BMC_SERVER, which ipmi-bmc-outage stops), servicing 70-71,
// DataImage 72-73, images 74-75, RAID 76-77, PreprovisioningImage 78-79, BMCEventSubscription
// 80-81; operator kills' large run (METAL3_TS_FAULTS_SCALE=large) 82-93 besides 52-59 (garbage
// collection, run alone, borrows 82-83; namespace deletion, run alone, borrows 84-87); deletion deadline 94; HostClaims 95-96; clusterctl move 97; Cluster API node reuse 98-100; a BMC Secret switched 101; comma-separated watch namespaces 102-103; ramdisk network data 104; Cluster API ClusterClass with the kubeadm providers 105-108.
export const TEST_STACK_SYSTEMS = 109;
/** Servers whose Redfish BMC is a sushy-tools of their own (the stack's isolated BMC group). */
export const ISOLATED_BMC_SERVERS: readonly number[] = [68, 69];
/** The server whose IPMI BMC is one of its own (the stack's isolated IPMI BMC, over its Redfish system). */
export const ISOLATED_IPMI_BMC_SERVER = 67;

/** A recorded stack a run can use: its env matches today's schema, servers and isolated BMC group. */
export function reusableTestStack(stateDir: string): boolean {
  try {
    const state = readState(stateDir);
    const isolated = state?.env.isolatedBmc?.systems ?? [];
    return state !== undefined && state.env.systems.length >= TEST_STACK_SYSTEMS
      && ISOLATED_BMC_SERVERS.every((index) => isolated.includes(index))
      && state.env.isolatedIpmiBmc?.system === ISOLATED_IPMI_BMC_SERVER;
  } catch {
    return false;
  }
}

/**
 * What every test file expects of the stack besides its processes: the controllers' identities
 * and all CRDs (BareMetalHost, provider, core Cluster API), installed once here so files running
 * side by side never race to create them, and no file ever deletes them as their installer.
 */
export async function prepareTestStack(stateDir: string): Promise<void> {
  const state = readState(stateDir);
  if (!state) throw new Error(`no test stack recorded in ${stateDir}`);
  // deploy/'s roles may have changed since the stack came up, and tokens expire.
  await installControllerIdentities(stateDir);
  const kubectl = new Kubectl(state.env);
  try {
    await installProviderCrds(kubectl, state.env);
    await installIpamCrds(kubectl, state.env);
  } finally {
    kubectl.dispose();
  }
}

/** A fresh stack in stateDir (whatever ran there before is stopped), prepared for the tests. */
export async function startTestStack(stateDir: string): Promise<void> {
  await stackDown(stateDir);
  const started = Date.now();
  // promtool (test/integration/deploy/monitoring.test.ts) builds beside the stack, so a clean CI
  // has it cached by the time that file runs. A failed build only warns: that file builds again
  // and reports the error itself.
  const promtool = buildPromtool().catch((error: unknown) => console.warn(`promtool warm-up failed: ${String(error)}`));
  await stackUp({ stateDir, systems: TEST_STACK_SYSTEMS, isolatedBmcSystems: ISOLATED_BMC_SERVERS,
    isolatedIpmiBmcSystem: ISOLATED_IPMI_BMC_SERVER, ironicBasicAuth: false, bmcBasicAuth: true });
  await prepareTestStack(stateDir);
  await promtool;
  console.log(`\ntest stack up in ${((Date.now() - started) / 1000).toFixed(1)} s (${stateDir})`);
}
