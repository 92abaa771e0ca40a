/** CAPM3's API group and current storage version; kept identical so existing manifests apply. */
export const INFRASTRUCTURE_GROUP = 'infrastructure.cluster.x-k8s.io';
export const INFRASTRUCTURE_VERSION = 'v1beta2';
export const INFRASTRUCTURE_API_VERSION = `${INFRASTRUCTURE_GROUP}/${INFRASTRUCTURE_VERSION}`;

/** Cluster API reads this CRD label to learn which contract version our kinds implement. */
export const CONTRACT_LABELS: Readonly<Record<string, string>> = { 'cluster.x-k8s.io/v1beta2': 'v1beta2' };
