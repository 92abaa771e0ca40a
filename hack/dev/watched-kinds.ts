import type { BareMetalHost } from '../../operator/api/index.ts';
import { BareMetalHostResource } from '../../operator/api/index.ts';
import type { KubeObject } from '../../operator/runtime/index.ts';
import { MachineDeploymentResource, MachineResource } from '../../capm3-provider/api/index.ts';
import type { WatchedKind } from './object-watcher.ts';

export const hostKind: WatchedKind = {
  resource: BareMetalHostResource,
  label: 'bmh',
  describe: (object) => {
    const host = object as BareMetalHost;
    const status = host.status;
    const state = status?.provisioning.state || '(none)';
    const consumer = host.spec.consumerRef?.name ? ` consumer=${host.spec.consumerRef.name}` : '';
    const error = status?.errorType ? ` error="${status.errorType}: ${status.errorMessage}"` : '';
    const powered = status?.poweredOn === undefined ? '' : ` poweredOn=${status.poweredOn}`;
    return `${state} [${status?.operationalStatus || '-'}]${powered}${consumer}${error}`;
  },
};

export const machineKind: WatchedKind = {
  resource: MachineResource,
  label: 'machine',
  describe: (object: KubeObject) => {
    const machine = object as KubeObject & { spec?: { providerID?: string }; status?: { phase?: string; nodeRef?: { name?: string } } };
    const node = machine.status?.nodeRef?.name ? ` node=${machine.status.nodeRef.name}` : '';
    return `${machine.status?.phase ?? 'Pending'}${machine.spec?.providerID ? ` ${machine.spec.providerID}` : ''}${node}`;
  },
};

export const machineDeploymentKind: WatchedKind = {
  resource: MachineDeploymentResource,
  label: 'machinedeployment',
  describe: (object: KubeObject) => {
    const deployment = object as KubeObject & { spec?: { replicas?: number }; status?: { replicas?: number; readyReplicas?: number } };
    return `replicas=${deployment.spec?.replicas ?? 0} current=${deployment.status?.replicas ?? 0} ready=${deployment.status?.readyReplicas ?? 0}`;
  },
};
