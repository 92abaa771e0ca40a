import { restartComponent, startComponent, stopComponent } from '../../hack/stack/stack.ts';
import { startApiServerPeer as startPeer, stopApiServerPeer as stopPeer, type ApiServerPeer } from '../../hack/stack/api-server-peer.ts';
import { readStackEnv } from './stack-env.ts';
import { testStackDir } from './test-stack-dir.ts';

/** Stops and restarts the API server on the same port and etcd data: open watches break. */
export async function restartKubeApiServer(): Promise<void> {
  await restartComponent(testStackDir(), 'kube-apiserver');
}

/** Stops and restarts etcd on the same port and data: the API servers lose their storage meanwhile. */
export async function restartEtcd(): Promise<void> {
  await restartComponent(testStackDir(), 'etcd');
}

/** Restarts Ironic with the same database (a crash and recovery, not a data loss). */
export async function restartIronic(): Promise<void> {
  await restartComponent(testStackDir(), 'ironic');
}

/** Ironic goes away (its database kept) until startIronic: an outage, as seen by the operator. */
export async function stopIronic(): Promise<void> {
  await stopComponent(testStackDir(), 'ironic');
}

export async function startIronic(): Promise<void> {
  await startComponent(testStackDir(), 'ironic');
}

/**
 * sushy-tools goes away (its state directory kept) until startSushy: every emulated server's BMC
 * stops answering at once, as a BMC network outage would look to Ironic.
 */
export async function stopSushy(): Promise<void> {
  await stopComponent(testStackDir(), 'sushy-emulator');
}

export async function startSushy(): Promise<void> {
  await startComponent(testStackDir(), 'sushy-emulator');
}

function isolatedBmcComponent(): string {
  const isolated = readStackEnv().isolatedBmc;
  if (!isolated) throw new Error('the test stack has no isolated BMC group (test-stack.ts ISOLATED_BMC_SERVERS)');
  return isolated.component;
}

/**
 * The isolated sushy-tools (the BMC of the stack's ISOLATED_BMC_SERVERS only) goes away, its
 * state kept, until startIsolatedBmc: those servers' BMCs stop answering, every other server's
 * BMC keeps working, so files running side by side are not touched.
 */
export async function stopIsolatedBmc(): Promise<void> {
  await stopComponent(testStackDir(), isolatedBmcComponent());
}

export async function startIsolatedBmc(): Promise<void> {
  await startComponent(testStackDir(), isolatedBmcComponent());
}

function isolatedIpmiBmcComponent(): string {
  const isolated = readStackEnv().isolatedIpmiBmc;
  if (!isolated) throw new Error('the test stack has no isolated IPMI BMC (test-stack.ts ISOLATED_IPMI_BMC_SERVER)');
  return isolated.component;
}

/**
 * The isolated IPMI BMC (ISOLATED_IPMI_BMC_SERVER's alone) goes away until startIsolatedIpmiBmc:
 * that server's IPMI stops answering, the server itself keeps its power, nobody else is touched.
 */
export async function stopIsolatedIpmiBmc(): Promise<void> {
  await stopComponent(testStackDir(), isolatedIpmiBmcComponent());
}

export async function startIsolatedIpmiBmc(): Promise<void> {
  await startComponent(testStackDir(), isolatedIpmiBmcComponent());
}

/**
 * A second API server on the stack's etcd (an HA control plane's other member), for writing
 * while the stack's own API server is stopped; stopApiServerPeer ends it.
 */
export async function startApiServerPeer(): Promise<ApiServerPeer> {
  return startPeer(testStackDir());
}

export async function stopApiServerPeer(): Promise<void> {
  await stopPeer(testStackDir());
}

/** The stack's API server goes away (etcd and everything else kept) until startKubeApiServer. */
export async function stopKubeApiServer(): Promise<void> {
  await stopComponent(testStackDir(), 'kube-apiserver');
}

export async function startKubeApiServer(): Promise<void> {
  await startComponent(testStackDir(), 'kube-apiserver');
}
