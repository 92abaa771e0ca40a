/** CAPM3's API group and current storage version; kept identical so existing manifests apply. */
export const INFRASTRUCTURE_GROUP = 'infrastructure.cluster.x-k8s.io';
export const INFRASTRUCTURE_VERSION = 'v1beta2';
export const INFRASTRUCTURE_API_VERSION = `${INFRASTRUCTURE_GROUP}/${INFRASTRUCTURE_VERSION}`;

/**
 * Cluster API reads these CRD labels to learn which of our versions implements each contract
 * version: v1beta2 for its current contract, the deprecated v1beta1 for the old one, as CAPM3's CRDs say.
 */
export const CONTRACT_LABELS: Readonly<Record<string, string>> = { 'cluster.x-k8s.io/v1beta1': 'v1beta1', 'cluster.x-k8s.io/v1beta2': 'v1beta2' };
