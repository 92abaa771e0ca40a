/** Label and annotation names shared with Cluster API, CAPM3 and BMO; exact strings matter to their tools. */

export const CLUSTER_NAME_LABEL = 'cluster.x-k8s.io/cluster-name';
export const CONTROL_PLANE_LABEL = 'cluster.x-k8s.io/control-plane';
/** On any Cluster API object: pauses reconciliation of that object. */
export const CLUSTER_PAUSED_ANNOTATION = 'cluster.x-k8s.io/paused';
/** Something else owns this infrastructure; the provider leaves it alone. */
export const MANAGED_BY_ANNOTATION = 'cluster.x-k8s.io/managed-by';
export const CLONED_FROM_NAME_ANNOTATION = 'cluster.x-k8s.io/cloned-from-name';
export const CLONED_FROM_GROUPKIND_ANNOTATION = 'cluster.x-k8s.io/cloned-from-groupkind';
export const METAL3_MACHINE_TEMPLATE_GROUPKIND = 'Metal3MachineTemplate.infrastructure.cluster.x-k8s.io';

/** On a Metal3Machine: `<namespace>/<name>` of the BareMetalHost it claimed. */
export const HOST_ANNOTATION = 'metal3.io/BareMetalHost';
/** The value CAPM3 writes into BMO's paused annotation; only this value is ever removed by us. */
export const CAPM3_PAUSE_VALUE = 'metal3.io/capm3';
/**
 * clusterctl waits while any object it moves carries this: on a held host until the Cluster's
 * pause and the status annotation are on it, so `clusterctl move` never takes a host half-paused.
 */
export const BLOCK_MOVE_ANNOTATION = 'clusterctl.cluster.x-k8s.io/block-move';
/** Hosts that failed remediation are never chosen again. */
export const UNHEALTHY_ANNOTATION = 'capm3.metal3.io/unhealthy';
export const UNHEALTHY_ANNOTATION_DEPRECATED = 'capi.metal3.io/unhealthy';
/** Host label: `md-<MachineDeployment>` or `cp-<control plane>` keeps a released host for that owner. */
export const NODE_REUSE_LABEL = 'infrastructure.cluster.x-k8s.io/node-reuse';
/** Host label naming the failure domain it sits in (the operator's, which HostClaims read too). */
export { FAILURE_DOMAIN_LABEL } from '../../operator/api/index.ts';
/** On a Metal3Cluster: comma-separated label prefixes whose labels go from each host to its Node (CAPM3's label sync). */
export const LABEL_SYNC_PREFIXES_ANNOTATION = 'metal3.io/metal3-label-sync-prefixes';
/** On an IPClaim named after its host (--enable-bmh-name-based-preallocation): the Metal3Data and pool it serves. */
export const DATA_NAME_LABEL = 'infrastructure.cluster.x-k8s.io/data-name';
export const POOL_NAME_LABEL = 'infrastructure.cluster.x-k8s.io/pool-name';
/** Workload Node label kubelet sets from the config drive's meta_data uuid (the host's UID). */
export const NODE_UUID_LABEL = 'metal3.io/uuid';

export const METAL3_MACHINE_FINALIZER = 'metal3machine.infrastructure.cluster.x-k8s.io';
export const METAL3_CLUSTER_FINALIZER = 'metal3cluster.infrastructure.cluster.x-k8s.io';
/** A template with claims or data keeps this finalizer (CAPM3 issue 1994: only while in use). */
export const METAL3_DATA_TEMPLATE_FINALIZER = 'metal3datatemplate.infrastructure.cluster.x-k8s.io';
/** Put by the template controller on claims and data it serves, so neither goes while in use (CAPM3 issue 1356). */
export const METAL3_DATA_CLAIM_FINALIZER = 'metal3dataclaim.infrastructure.cluster.x-k8s.io';
/** Put by the data controller on itself and on its IP claims, released once the addresses are given back. */
export const METAL3_DATA_FINALIZER = 'metal3data.infrastructure.cluster.x-k8s.io';
/** Rendered Secret names: `<metal3machine>-metadata` and `<metal3machine>-networkdata`. */
export const META_DATA_SECRET_SUFFIX = '-metadata';
export const NETWORK_DATA_SECRET_SUFFIX = '-networkdata';
/** Type of the Secrets the provider renders, as Cluster API types its own. */
export const PROVIDER_SECRET_TYPE = 'infrastructure.cluster.x-k8s.io/secret';

/** `metal3://<namespace>/<host>/<metal3machine>`, CAPM3's providerID format since 1.13. */
export const PROVIDER_ID_PREFIX = 'metal3://';
export function providerIdFor(parts: { namespace: string; hostName: string; machineName: string }): string {
  return `${PROVIDER_ID_PREFIX}${parts.namespace}/${parts.hostName}/${parts.machineName}`;
}

export const METAL3_REMEDIATION_FINALIZER = 'metal3remediation.infrastructure.cluster.x-k8s.io';
/** Host annotation prefix of the remediation's power-off request: `reboot.metal3.io/metal3-remediation-<remediation UID>`. */
export const REMEDIATION_REBOOT_ANNOTATION_PREFIX = 'reboot.metal3.io/metal3-remediation-';
/** On a Metal3Remediation: the JSON of the deleted Node's annotations and labels, put back when it registers again. */
export const NODE_ANNOTATIONS_BACKUP_ANNOTATION = 'remediation.metal3.io/node-annotations-backup';
export const NODE_LABELS_BACKUP_ANNOTATION = 'remediation.metal3.io/node-labels-backup';
/** The value CAPM3 writes into the unhealthy annotation. */
export const UNHEALTHY_ANNOTATION_VALUE = 'capm3/UnhealthyNode';
