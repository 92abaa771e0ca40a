import type { BareMetalHost } from '../../../operator/api/index.ts';
import type { Clock, EventRecorder, Informer, KubeObject, Logger, ResourceClient } from '../../../operator/runtime/index.ts';
import { hasFinalizer, isForbidden, isNotFound } from '../../../operator/runtime/index.ts';
import {
  CLUSTER_NAME_LABEL, METAL3_REMEDIATION_FINALIZER, REMEDIATION_REBOOT_ANNOTATION_PREFIX, metal3MachineSchema,
} from '../../api/index.ts';
import type { Machine, Metal3Machine, Metal3Remediation } from '../../api/index.ts';
import { hasNodeBackup, hasOutOfServiceTaint, isBackedUp, retryLimitReached, timeoutLeftMs } from '../../remediation/index.ts';
import type { NodeRemoval, RemediationFacts, Taint } from '../../remediation/index.ts';
import type { WorkloadClients, WorkloadClusters } from '../../remote/workload-clusters.ts';
import { annotatedHost } from '../metal3machine/held-host.ts';
import { ownerMachine } from '../metal3machine/owner-machine.ts';

/** Clients and caches the Metal3Remediation reconciler works with; built once in controller.ts. */
export interface RemediationDeps {
  remediations: { client: ResourceClient<Metal3Remediation>; cache: Informer<Metal3Remediation> };
  machines: { client: ResourceClient<Machine>; cache: Informer<Machine> };
  metal3Machines: ResourceClient<Metal3Machine>;
  /** Read live: power state and annotations must be current. */
  hosts: ResourceClient<BareMetalHost>;
  workloadClusters: WorkloadClusters;
  /** CAPM3's choice for the management cluster's Kubernetes version (main.ts reads it once). */
  nodeRemoval: NodeRemoval;
  events: EventRecorder;
  /** How often power and the workload Node are looked at while waiting for them. */
  pollMs: number;
  clock: Clock;
}

export type NodeObject = KubeObject & { spec?: { providerID?: string; taints?: Taint[] } };

/** Everything one reconcile of one Metal3Remediation has loaded. */
export interface RemediationScope {
  remediation: Metal3Remediation;
  machine: Machine;
  host: BareMetalHost;
  /** The Machine's Node and a client for its workload cluster, when there is one to read. */
  node: NodeObject | undefined;
  nodes: ResourceClient<KubeObject> | undefined;
  facts: RemediationFacts;
  log: Logger;
  signal: AbortSignal;
}

export type Loaded = { kind: 'loaded'; scope: RemediationScope } | { kind: 'missing'; what: string } | { kind: 'waiting'; why: string };

/** The host annotation through which this remediation holds the host off. */
export function powerOffAnnotation(remediation: Metal3Remediation): string {
  return `${REMEDIATION_REBOOT_ANNOTATION_PREFIX}${remediation.metadata.uid ?? ''}`;
}

/** Loads the Machine (owner, same name), its Metal3Machine, the host and the workload Node, and derives the facts. */
export async function loadScope(
  remediation: Metal3Remediation,
  deps: RemediationDeps,
  context: { log: Logger; signal: AbortSignal },
): Promise<Loaded> {
  const namespace = remediation.metadata.namespace ?? '';
  const machine = ownerMachine(remediation, deps.machines.cache);
  if (!machine) return { kind: 'missing', what: 'its owner Machine (ownerReference kind Machine) does not exist' };
  const infraName = machine.spec.infrastructureRef?.name;
  if (!infraName) return { kind: 'missing', what: `Machine ${machine.metadata.name} has no infrastructureRef` };
  let m3m: Metal3Machine;
  try {
    m3m = metal3MachineSchema.parse(await deps.metal3Machines.get({ namespace, name: infraName }, { signal: context.signal }));
  } catch (error) {
    if (isNotFound(error)) return { kind: 'missing', what: `Metal3Machine ${infraName} does not exist` };
    throw error;
  }
  const found = await annotatedHost(m3m, deps.hosts, context.signal);
  if (!found?.host) return { kind: 'missing', what: `Metal3Machine ${infraName} holds no BareMetalHost${found ? ` (${found.name} is gone)` : ''}` };
  const host = found.host;
  const log = context.log.child({ machine: machine.metadata.name, host: host.metadata.name });

  const workload = await workloadNode(machine, deps, context.signal);
  if (workload.kind === 'waiting') return workload;

  const now = deps.clock.now();
  const nodeTainted = hasOutOfServiceTaint(workload.node?.spec?.taints);
  // Pods and volume attachments are listed only while a tainted Node is what the remediation waits on.
  const drainMatters = deps.nodeRemoval === 'out-of-service-taint' && nodeTainted && workload.state === 'present'
    && remediation.status?.phase === 'Running' && !remediation.metadata.deletionTimestamp;
  const facts: RemediationFacts = {
    phase: remediation.status?.phase,
    deleting: remediation.metadata.deletionTimestamp !== undefined,
    hasFinalizer: hasFinalizer(remediation, METAL3_REMEDIATION_FINALIZER),
    strategyType: remediation.spec.strategy?.type,
    host: {
      online: host.spec.online ?? false,
      powerOffRequested: powerOffAnnotation(remediation) in (host.metadata.annotations ?? {}),
      poweredOn: host.status?.poweredOn ?? false,
    },
    node: workload.state,
    nodeRemoval: deps.nodeRemoval,
    nodeTainted,
    nodeDrained: drainMatters ? await isDrained(workload.clients!, workload.node!, { log, signal: context.signal }) : false,
    nodeBackedUp: workload.node ? isBackedUp(remediation.metadata.annotations, workload.node.metadata) : false,
    hasBackup: hasNodeBackup(remediation.metadata.annotations),
    timeoutLeftMs: timeoutLeftMs(remediation, now),
    retryLimitReached: retryLimitReached(remediation),
  };
  return { kind: 'loaded', scope: { remediation, machine, host, node: workload.node, nodes: workload.clients?.nodes, facts, log, signal: context.signal } };
}

type WorkloadNode =
  | { kind: 'known'; state: RemediationFacts['node']; node: NodeObject | undefined; clients: WorkloadClients | undefined }
  | { kind: 'waiting'; why: string };

/** The Node the Machine's nodeRef names, read in the workload cluster (CAPM3 reads it by that name too). */
async function workloadNode(machine: Machine, deps: RemediationDeps, signal: AbortSignal): Promise<WorkloadNode> {
  const name = machine.status?.nodeRef?.name;
  const clusterName = machine.metadata.labels?.[CLUSTER_NAME_LABEL] ?? machine.spec.clusterName;
  if (!clusterName) return { kind: 'known', state: 'absent', node: undefined, clients: undefined };
  const found = await deps.workloadClusters.clients({ namespace: machine.metadata.namespace ?? '', clusterName }, signal);
  if (found.kind === 'unavailable') return { kind: 'waiting', why: found.why };
  const clients: WorkloadClients = { nodes: found.nodes, pods: found.pods, volumeAttachments: found.volumeAttachments };
  if (!name) return { kind: 'known', state: 'absent', node: undefined, clients };
  try {
    const node = await clients.nodes.get({ name }, { signal }) as NodeObject;
    return { kind: 'known', state: node.metadata.deletionTimestamp ? 'deleting' : 'present', node, clients };
  } catch (error) {
    if (isNotFound(error)) return { kind: 'known', state: 'absent', node: undefined, clients };
    // Clusters set up without RBAC for Nodes: remediate by power alone, as CAPM3 does.
    if (isForbidden(error)) return { kind: 'known', state: 'unknown', node: undefined, clients: undefined };
    return { kind: 'waiting', why: `cannot read Node ${name} in the workload cluster: ${(error as Error).message}` };
  }
}

/**
 * CAPM3's IsNodeDrained: no pod on the Node is terminating and no volume is still attached to it.
 * What cannot be read counts as not drained yet (logged), as in CAPM3.
 */
async function isDrained(clients: WorkloadClients, node: NodeObject, context: { log: Logger; signal: AbortSignal }): Promise<boolean> {
  const nodeName = node.metadata.name ?? '';
  try {
    const pods = await clients.pods.list({ fieldSelector: `spec.nodeName=${nodeName}`, signal: context.signal });
    const terminating = pods.items.find((pod) => pod.metadata.deletionTimestamp);
    if (terminating) {
      context.log.info('waiting for a terminating pod on the out-of-service Node', { node: nodeName, pod: `${terminating.metadata.namespace}/${terminating.metadata.name}` });
      return false;
    }
    // VolumeAttachments cannot be selected by node on the server.
    const attachments = await clients.volumeAttachments.list({ signal: context.signal });
    const attached = attachments.items.find((attachment) => (attachment.spec as { nodeName?: string } | undefined)?.nodeName === nodeName);
    if (attached) {
      context.log.info('waiting for a volume to detach from the out-of-service Node', { node: nodeName, volumeAttachment: attached.metadata.name });
      return false;
    }
    return true;
  } catch (error) {
    context.log.info('cannot tell whether the out-of-service Node has drained; looking again', { node: nodeName, error: (error as Error).message });
    return false;
  }
}
