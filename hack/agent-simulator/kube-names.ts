/** Kubernetes object names (DNS-1123 subdomain), which Node names must be. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** Label values, and the name part of label keys. */
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export const isNodeName = (name: string) => name.length <= 253 && DNS_SUBDOMAIN.test(name);

export const isLabelValue = (value: string) => value.length <= 63 && LABEL_VALUE.test(value);

/** `[<DNS subdomain prefix>/]<name>`, as the API server checks label keys. */
export function isLabelKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = key.slice(slash + 1);
  return name !== '' && isLabelValue(name) && (prefix === undefined || isNodeName(prefix));
}

/** The kubernetes.io labels a kubelet may set on its own Node (k8s.io/kubelet's well-known labels). */
const KUBELET_SETTABLE_LABELS = new Set([
  'kubernetes.io/hostname', 'kubernetes.io/os', 'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch',
  'topology.kubernetes.io/zone', 'topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region', 'node.kubernetes.io/instance-type', 'beta.kubernetes.io/instance-type',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];
const inNamespace = (namespace: string, parent: string) => namespace === parent || namespace.endsWith(`.${parent}`);

/**
 * A `--node-labels` key the kubelet refuses to start with: one in the kubernetes.io or k8s.io
 * namespaces that is not its own (`node-role.kubernetes.io/worker`, say: only an admin may set that).
 */
export function isReservedForKubelet(key: string): boolean {
  const slash = key.indexOf('/');
  const namespace = slash < 0 ? '' : key.slice(0, slash);
  if (!inNamespace(namespace, 'kubernetes.io') && !inNamespace(namespace, 'k8s.io')) return false;
  return !KUBELET_SETTABLE_LABELS.has(key) && !KUBELET_LABEL_NAMESPACES.some((allowed) => inNamespace(namespace, allowed));
}
