import type { BareMetalHost } from '../../../operator/api/index.ts';
import type { Result } from '../../../operator/runtime/index.ts';
import { LabelSelectorError, compileLabelSelector, findCondition, isNotFound, objectName } from '../../../operator/runtime/index.ts';
import {
  CLUSTER_NAME_LABEL, HOST_ANNOTATION, NODE_UUID_LABEL, clusterInfrastructureProvisioned, providerIdFor,
} from '../../api/index.ts';
import {
  chooseHost, claimHost, consumedBy, describeNoHost, hostAddresses, hostSpecChanges,
  labelSecret, patchHeldHost, pauseAnnotationChanges, reuseOwner,
} from '../../baremetal/index.ts';
import type { HostChoice, HostData } from '../../baremetal/index.ts';
import { linkNode, nodesFor } from '../../remote/node-link.ts';
import { annotatedHost } from './held-host.ts';
import { machineData } from './machine-data.ts';
import type { MachineDataOutcome } from './machine-data.ts';
import type { MachineDeps, MachineScope } from './machine-context.ts';
import { machineSpecProblems } from './validate.ts';

const CLAIM_ATTEMPTS = 3;
const ASSOCIATED = 'AssociateBareMetalHostSuccess';
/** CAPM3's reason when the host was the one kept for this machine's owner; kept while the association lasts. */
const ASSOCIATED_VIA_NODE_REUSE = 'AssociateBareMetalHostViaNodeReuseSuccess';

/** How a host was chosen, for the association's reason. */
type ChosenVia = Extract<HostChoice, { kind: 'chosen' }>['via'];

/** Waits for what the machine needs, claims a host, keeps its spec, and reports provisioning and the Node. */
export async function reconcileNormal(scope: MachineScope, deps: MachineDeps): Promise<Result> {
  const { m3m, cluster, status } = scope;
  const wait = (reason: string, message: string, requeue = false): Result => {
    status.condition({ type: 'AssociateBareMetalHost', status: 'False', reason, message });
    return requeue ? { requeueAfter: deps.settings.requeueAfterMs } : {};
  };

  const infraName = cluster.spec.infrastructureRef?.name;
  if (!infraName) return wait('WaitingforMetal3Cluster', `Cluster ${scope.clusterName} has no spec.infrastructureRef`);
  let cloudProviderEnabled: boolean;
  try {
    const metal3Cluster = await deps.metal3Clusters.get({ namespace: scope.namespace, name: infraName }, { signal: scope.signal });
    cloudProviderEnabled = (metal3Cluster.spec as { cloudProviderEnabled?: boolean } | undefined)?.cloudProviderEnabled === true;
  } catch (error) {
    if (!isNotFound(error)) throw error;
    return wait('WaitingforMetal3Cluster', `Metal3Cluster ${scope.namespace}/${infraName} does not exist`, true);
  }
  if (!clusterInfrastructureProvisioned(cluster)) {
    return wait('WaitingForClusterInfrastructureReady', `Cluster ${scope.clusterName} infrastructure is not provisioned yet`);
  }

  const problems = machineSpecProblems(m3m);
  if (problems.length) return wait('InvalidConfiguration', problems.join('; '));

  const data = await hostData(scope, deps);
  if ('waiting' in data) return wait('WaitingForBootstrapData', data.waiting, data.requeue);

  let selector;
  try {
    selector = compileLabelSelector(m3m.spec.hostSelector);
  } catch (error) {
    if (!(error instanceof LabelSelectorError)) throw error;
    return wait('InvalidHostSelector', `spec.hostSelector: ${error.message}`);
  }

  // Without a data template the spec's Secrets are ready at once and go to the host with the claim;
  // with one, image and data are written only once the rendered Secrets exist (they need the host).
  const fromSpec = m3m.spec.dataTemplate?.name ? undefined : await machineData(deps.data, { m3m, status, signal: scope.signal });
  let host = await currentHost(scope, deps);
  let associatedReason: string;
  if (host) {
    associatedReason = await keptAssociationReason(scope, deps);
  } else {
    const claimData = fromSpec?.kind === 'ready' ? { ...data.hostData, ...withoutKind(fromSpec) } : {};
    const claimed = await claimAHost(scope, deps, { selector, data: claimData });
    if ('result' in claimed) return claimed.result;
    host = claimed.host;
    associatedReason = claimed.via === 'node-reuse' ? ASSOCIATED_VIA_NODE_REUSE : ASSOCIATED;
  }

  const rendered = fromSpec ?? await machineData(deps.data, { m3m, status, signal: scope.signal });
  // CAPM3's condition for the data association (the claim made, or none needed), before the data is ready.
  status.condition({ type: 'AssociateMetal3MachineMetaData', status: 'True', reason: 'AssociateMetal3MachineMetaDataSuccess', message: '' });
  const dataForHost: HostData = rendered.kind === 'ready' ? { ...data.hostData, ...withoutKind(rendered) } : {};

  // Held: keep our labels, spec and the Cluster's pause on the host, in one conditional write.
  const labels = host.metadata.labels?.[CLUSTER_NAME_LABEL] === scope.clusterName ? undefined : { [CLUSTER_NAME_LABEL]: scope.clusterName };
  const annotations = pauseAnnotationChanges(host, { clusterPaused: false, clusterName: scope.clusterName });
  const spec = hostSpecChanges(host, m3m, dataForHost);
  if (labels || annotations || Object.keys(spec).length) {
    host = await patchHeldHost(deps.hosts, host, {
      ...(Object.keys(spec).length ? { spec } : {}),
      ...(labels || annotations ? { metadata: { ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) } } : {}),
    }, scope.signal);
  }
  status.next.userData = data.hostData.userData;
  status.condition({ type: 'AssociateBareMetalHost', status: 'True', reason: associatedReason, message: `claimed ${host.metadata.name}` });
  const addresses = hostAddresses(host);
  if (addresses.length) status.next.addresses = addresses;
  if (rendered.kind === 'waiting') {
    scope.log.info('waiting for rendered data before writing the host spec', { why: rendered.why });
    return { requeueAfter: deps.settings.requeueAfterMs };
  }

  const state = host.status?.provisioning?.state ?? '';
  if (state !== 'provisioned') {
    const error = host.status?.errorMessage ? `; host error: ${host.status.errorType ?? 'error'}: ${host.status.errorMessage}` : '';
    status.condition({ type: 'HostProvisioned', status: 'False', reason: 'WaitingForHostProvisioned', message: `${host.metadata.name} is ${state || 'not registered yet'}${error}` });
    return {};
  }
  status.condition({ type: 'HostProvisioned', status: 'True', reason: 'HostProvisioned', message: `${host.metadata.name} runs ${host.status?.provisioning?.image?.url ?? 'its image'}` });

  // A providerID once set is kept, as CAPM3 keeps it: a legacy `metal3://<uuid>` or one a cloud
  // provider wrote is what the Node carries, and a Node's providerID cannot change.
  const providerID = m3m.spec.providerID || providerIdFor({ namespace: scope.namespace, hostName: host.metadata.name ?? '', machineName: m3m.metadata.name ?? '' });
  // CAPM3 sets the providerID and provisioned only once the Node is there: with a cloud provider,
  // once the cloud controller manager gave a Node this providerID (no Node is written here); with
  // a bootstrap provider (configRef), once kubelet registered a Node labelled with the host's UID.
  // A Machine with only a data Secret has no Node to wait for; one already through it looks no more.
  const nodeGate = cloudProviderEnabled ? 'cloud-provider' : scope.machine.spec.bootstrap?.configRef?.name ? 'node-label' : undefined;
  const throughGate = scope.machine.status?.nodeRef?.name !== undefined || m3m.status?.initialization?.provisioned === true;
  if (nodeGate && !throughGate) {
    const waiting = await waitForWorkloadNode(scope, deps, { providerID, hostUID: host.metadata.uid ?? '', gate: nodeGate });
    if (waiting) return waiting;
  }
  if (m3m.spec.providerID !== providerID) {
    await deps.metal3Machines.client.patch(objectName(m3m), { spec: { providerID } }, { type: 'merge', signal: scope.signal });
    deps.events.event(m3m, { type: 'Normal', reason: 'Provisioned', action: 'Provision', note: `${host.metadata.name} provisioned; providerID ${providerID}` });
  }
  status.next.initialization = { provisioned: true };
  return linkWorkloadNode(scope, deps, { host, providerID, cloudProviderEnabled });
}

/**
 * Undefined once the workload Node the gate waits for is there: one carrying `providerID`, or
 * (`node-label`) one kubelet labelled with the host's UID; else what to wait with, said in NodeLinked.
 */
async function waitForWorkloadNode(
  scope: MachineScope,
  deps: MachineDeps,
  options: { providerID: string; hostUID: string; gate: 'cloud-provider' | 'node-label' },
): Promise<Result | undefined> {
  const waiting = (reason: string, message: string): Result => {
    scope.status.condition({ type: 'NodeLinked', status: 'False', reason, message });
    return { requeueAfter: deps.settings.requeueAfterMs };
  };
  const client = await deps.workloadClusters.nodes({ namespace: scope.namespace, clusterName: scope.clusterName }, scope.signal);
  if (client.kind === 'unavailable') return waiting('WaitingForWorkloadCluster', client.why);
  let found: { withProviderID: string[]; withHostLabel: string[] };
  try {
    found = await nodesFor(client.nodes, { providerID: options.providerID, hostUID: options.hostUID }, scope.signal);
  } catch (error) {
    scope.log.warn('workload cluster unreachable', { error: (error as Error).message });
    return waiting('WorkloadClusterUnreachable', (error as Error).message);
  }
  if (found.withProviderID.length > 0) return undefined;
  if (options.gate === 'cloud-provider') {
    return waiting('WaitingForCloudProviderNode', `cloudProviderEnabled: no Node carries providerID ${options.providerID} yet; the cloud controller manager sets it`);
  }
  if (found.withHostLabel.length > 0) return undefined;
  return waiting('WaitingForNode', `no Node labelled ${NODE_UUID_LABEL}=${options.hostUID} yet (kubelet adds it when the node joins)`);
}

/**
 * The reason the association got when the host was claimed, kept as CAPM3 keeps it. The pass
 * right after a claim is woken by the claim's annotation and may read a cached copy without the
 * status that pass wrote after it; only then is the live object read.
 */
async function keptAssociationReason(scope: MachineScope, deps: MachineDeps): Promise<string> {
  const trueReason = (conditions: Parameters<typeof findCondition>[0]) => {
    const associated = findCondition(conditions, 'AssociateBareMetalHost');
    return associated?.status === 'True' ? associated.reason : undefined;
  };
  const cached = trueReason(scope.status.next.conditions);
  if (cached) return cached;
  const live = await deps.metal3Machines.client.get(objectName(scope.m3m), { signal: scope.signal });
  return trueReason(live.status?.conditions) ?? ASSOCIATED;
}

async function hostData(scope: MachineScope, deps: MachineDeps): Promise<{ hostData: HostData } | { waiting: string; requeue: boolean }> {
  const { m3m, machine } = scope;
  const bootstrap = machine.spec.bootstrap;
  // CAPM3's order: nothing before the bootstrap data is ready; then the user data already
  // recorded stays, else the bootstrap data Secret, which wins over spec.userData.
  if (!bootstrap?.dataSecretName) {
    return { waiting: `Machine ${machine.metadata.name} has no bootstrap data yet (spec.bootstrap.dataSecretName)`, requeue: false };
  }
  const secretName = m3m.status?.userData?.name || bootstrap.dataSecretName;
  try {
    await deps.secrets.get({ namespace: scope.namespace, name: secretName }, { signal: scope.signal });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    return { waiting: `bootstrap data Secret ${scope.namespace}/${secretName} does not exist`, requeue: true };
  }
  return { hostData: { userData: { name: secretName, namespace: scope.namespace } } };
}

/** The host this machine holds; a host someone else took (or that vanished) is let go unless provisioned. */
async function currentHost(scope: MachineScope, deps: MachineDeps): Promise<BareMetalHost | undefined> {
  const found = await annotatedHost(scope.m3m, deps.hosts, scope.signal);
  if (!found) return undefined;
  if (found.host && consumedBy(found.host, { namespace: scope.namespace, name: scope.m3m.metadata.name ?? '' })) return found.host;
  const why = found.host ? `was claimed by ${found.host.spec.consumerRef?.kind ?? 'nobody'} ${found.host.spec.consumerRef?.name ?? ''}`.trim() : 'no longer exists';
  if (scope.m3m.spec.providerID) {
    // Never steal a host back (CAPM3 issue 3516), and never silently swap the server under a running Node.
    throw new HostLostError(`BareMetalHost ${found.name} ${why} after this machine was provisioned`);
  }
  scope.log.warn('annotated host is not ours any more; choosing another', { host: found.name, why });
  await deps.metal3Machines.client.patch(objectName(scope.m3m), { metadata: { annotations: { [HOST_ANNOTATION]: null } } }, { type: 'merge', signal: scope.signal });
  return undefined;
}

export class HostLostError extends Error {}

async function claimAHost(
  scope: MachineScope,
  deps: MachineDeps,
  options: { selector: ReturnType<typeof compileLabelSelector>; data: HostData },
): Promise<{ host: BareMetalHost; via: ChosenVia } | { result: Result }> {
  const { m3m, status } = scope;
  const reuse = (await reuseOwner(scope.machine, deps, scope.signal))?.labelValue;
  const claimant = {
    namespace: scope.namespace,
    name: m3m.metadata.name ?? '',
    ...(m3m.spec.failureDomain ? { failureDomain: m3m.spec.failureDomain } : {}),
    ...(reuse ? { reuseLabelValue: reuse } : {}),
  };
  for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
    const listed = await deps.hosts.list({ namespace: scope.namespace, signal: scope.signal });
    const candidates = listed.items.filter((host) => options.selector.matches(host.metadata.labels));
    const choice = chooseHost(candidates, claimant, deps.random);
    if (choice.kind === 'none') {
      const message = describeNoHost(choice, options.selector);
      status.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'AssociateBareMetalHostFailed', message });
      scope.log.info('no host available; will look again', { message });
      return { result: { requeueAfter: deps.settings.requeueAfterMs } };
    }
    if (choice.kind === 'wait-for-reused') {
      status.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'WaitingForReusedHost',
        message: `${choice.host.metadata.name} is kept for ${reuse} and is still ${choice.host.status?.provisioning?.state ?? 'busy'}` });
      return { result: { requeueAfter: deps.settings.requeueAfterMs } };
    }
    let host = choice.host;
    if (choice.via !== 'existing-claim') {
      const outcome = await claimHost({ hosts: deps.hosts, host, machine: m3m, clusterName: scope.clusterName, data: options.data, signal: scope.signal });
      if (outcome.kind === 'lost') {
        scope.log.info('lost a claim race; choosing again', { why: outcome.why, attempt });
        continue;
      }
      host = outcome.host;
      deps.events.event(m3m, { type: 'Normal', reason: 'HostClaimed', action: 'Associate',
        note: `claimed BareMetalHost ${host.metadata.name}${choice.via === 'any' ? '' : ` (${choice.via})`}`, related: host });
    }
    await labelSecret(deps.secrets, host, scope.clusterName, scope.signal);
    await deps.metal3Machines.client.patch(objectName(m3m), {
      metadata: { annotations: { [HOST_ANNOTATION]: `${scope.namespace}/${host.metadata.name}` } },
    }, { type: 'merge', signal: scope.signal });
    scope.log.info('claimed host', { host: host.metadata.name, via: choice.via });
    return { host, via: choice.via };
  }
  status.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'AssociateBareMetalHostFailed',
    message: `lost ${CLAIM_ATTEMPTS} claim races in a row; retrying` });
  return { result: { requeue: true } };
}

async function linkWorkloadNode(
  scope: MachineScope,
  deps: MachineDeps,
  options: { host: BareMetalHost; providerID: string; cloudProviderEnabled: boolean },
): Promise<Result> {
  if (scope.machine.status?.nodeRef?.name) {
    scope.status.condition({ type: 'NodeLinked', status: 'True', reason: 'NodeLinked', message: `Node ${scope.machine.status.nodeRef.name}` });
    return {};
  }
  const client = await deps.workloadClusters.nodes({ namespace: scope.namespace, clusterName: scope.clusterName }, scope.signal);
  if (client.kind === 'unavailable') {
    scope.log.info('workload cluster unavailable', { why: client.why });
    scope.status.condition({ type: 'NodeLinked', status: 'False', reason: 'WaitingForWorkloadCluster', message: client.why });
    return { requeueAfter: deps.settings.requeueAfterMs };
  }
  const hostnames = hostAddresses(options.host).filter((a) => a.type === 'Hostname').map((a) => a.address);
  let outcome;
  try {
    outcome = await linkNode({ nodes: client.nodes, providerID: options.providerID, hostUID: options.host.metadata.uid ?? '', hostnames,
      setsProviderID: !options.cloudProviderEnabled, signal: scope.signal });
  } catch (error) {
    scope.log.warn('workload cluster unreachable', { error: (error as Error).message });
    scope.status.condition({ type: 'NodeLinked', status: 'False', reason: 'WorkloadClusterUnreachable', message: (error as Error).message });
    return { requeueAfter: deps.settings.requeueAfterMs };
  }
  scope.log.info('workload Node', { outcome: outcome.kind, ...(outcome.kind === 'linked' ? { node: outcome.node, changed: outcome.changed } : { why: outcome.why }) });
  if (outcome.kind === 'linked') {
    if (outcome.changed) {
      deps.events.event(scope.m3m, { type: 'Normal', reason: 'NodeLinked', action: 'SetProviderID', note: `Node ${outcome.node} now has providerID ${options.providerID}` });
    }
    // Cluster API maps a Node event to its Machine by the Machine's providerID, so a Node
    // update that beats the Machine's own providerID update is dropped and the Machine waits
    // without a nodeRef. NodeLinked turns True (a status write, which wakes the Machine) only
    // once the Machine carries the providerID and the Node was linked on an earlier pass.
    if (outcome.changed || scope.machine.spec.providerID !== options.providerID) {
      scope.status.condition({ type: 'NodeLinked', status: 'False', reason: 'WaitingForNodeRef',
        message: `Node ${outcome.node} has providerID ${options.providerID}; waiting for Cluster API to link it` });
      return { requeueAfter: Math.min(1_000, deps.settings.requeueAfterMs) };
    }
    scope.status.condition({ type: 'NodeLinked', status: 'True', reason: 'NodeLinked', message: `Node ${outcome.node}` });
    return { requeueAfter: deps.settings.requeueAfterMs };
  }
  scope.status.condition({
    type: 'NodeLinked', status: 'False',
    reason: outcome.kind === 'conflict' ? 'SettingProviderIDOnNodeFailed' : 'WaitingForNode',
    message: outcome.why,
  });
  if (outcome.kind === 'conflict') {
    deps.events.event(scope.m3m, { type: 'Warning', reason: 'SettingProviderIDOnNodeFailed', action: 'SetProviderID', note: outcome.why });
  }
  return { requeueAfter: deps.settings.requeueAfterMs };
}

function withoutKind(outcome: Extract<MachineDataOutcome, { kind: 'ready' }>): Pick<HostData, 'metaData' | 'networkData'> {
  return { ...(outcome.metaData ? { metaData: outcome.metaData } : {}), ...(outcome.networkData ? { networkData: outcome.networkData } : {}) };
}
