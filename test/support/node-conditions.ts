import type { Kubectl } from './kubectl.ts';

/**
 * What a kubelet posts when its node goes bad: Ready False, as of now. The simulated kubelets
 * send no heartbeats, so the Node stays NotReady until its server boots again.
 */
export async function markNodeNotReady(workload: Kubectl, name: string): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  await workload.ok(['patch', 'node', name, '--subresource=status', '--type=strategic', '-p', JSON.stringify({ status: { conditions: [
    { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'marked NotReady by the test', lastHeartbeatTime: now, lastTransitionTime: now },
  ] } })]);
}
