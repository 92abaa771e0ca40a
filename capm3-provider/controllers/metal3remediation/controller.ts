import type { BareMetalHost } from '../../../operator/api/index.ts';
import { BareMetalHostResource } from '../../../operator/api/index.ts';
import type { Controller, Manager, MapFunc } from '../../../operator/runtime/index.ts';
import { INFRASTRUCTURE_GROUP, MachineResource, Metal3MachineResource, Metal3RemediationResource } from '../../api/index.ts';
import type { Machine, Metal3Machine, Metal3Remediation } from '../../api/index.ts';
import type { NodeRemoval } from '../../remediation/index.ts';
import type { WorkloadClusters } from '../../remote/workload-clusters.ts';
import { Metal3RemediationReconciler } from './reconciler.ts';

export const METAL3_REMEDIATION_CONTROLLER = 'metal3remediation';

export interface Metal3RemediationControllerOptions {
  maxConcurrentReconciles: number;
  /** The process's one set of workload cluster clients. */
  workloadClusters: WorkloadClusters;
  /** How often power and the workload Node are looked at while a remediation waits for them. */
  pollMs: number;
  /** From the management cluster's Kubernetes version, as CAPM3 decides it at start. */
  nodeRemoval: NodeRemoval;
}

/**
 * Metal3Remediations (Cluster API's MachineHealthCheck creates one per unhealthy Machine,
 * named after it), woken by their own writes and by changes of the host their Machine holds.
 * Not limited by --watch-filter, as in CAPM3: a remediation made from a template carries no
 * watch label of its own.
 */
export function setupMetal3RemediationController(manager: Manager, options: Metal3RemediationControllerOptions): Controller {
  const cache = manager.informer<Metal3Remediation>(Metal3RemediationResource);
  const machines = manager.informer<Machine>(MachineResource);
  const reconciler = new Metal3RemediationReconciler({
    remediations: { client: manager.client<Metal3Remediation>(Metal3RemediationResource), cache },
    machines: { client: manager.client<Machine>(MachineResource), cache: machines },
    metal3Machines: manager.client<Metal3Machine>(Metal3MachineResource),
    hosts: manager.client<BareMetalHost>(BareMetalHostResource),
    workloadClusters: options.workloadClusters,
    nodeRemoval: options.nodeRemoval,
    events: manager.eventRecorder('metal3remediation-controller'),
    pollMs: options.pollMs,
    clock: manager.clock,
  });

  // host -> its Metal3Machine (consumerRef) -> the Machine whose infrastructureRef names it -> the remediation of that name.
  const hostToRemediation: MapFunc<BareMetalHost> = (host) => {
    const ref = host.spec?.consumerRef;
    if (!ref?.name || ref.kind !== Metal3MachineResource.kind || !(ref.apiVersion ?? '').startsWith(`${INFRASTRUCTURE_GROUP}/`)) return [];
    const namespace = ref.namespace ?? host.metadata.namespace;
    return machines.list(namespace)
      .filter((machine) => machine.spec?.infrastructureRef?.name === ref.name && cache.get({ namespace, name: machine.metadata.name ?? '' }))
      .map((machine) => ({ namespace, name: machine.metadata.name ?? '' }));
  };

  return manager
    .controller(METAL3_REMEDIATION_CONTROLLER)
    .for(Metal3RemediationResource)
    .watches(BareMetalHostResource, hostToRemediation)
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(reconciler);
}
