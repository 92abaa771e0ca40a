import { metaDataHostname, userDataHostname } from './cloud-init-hostname.ts';
import type { ConfigDriveContents } from './configdrive-contents.ts';
import type { Inventory } from './inventory-types.ts';
import { isLabelValue, isNodeName } from './kube-names.ts';
import type { KubeletRegistration } from './kubeadm.ts';

/** The Node the installed OS's kubelet registers. */
export interface NodeIdentity {
  /** Node name: kubeadm's `nodeRegistration.name`, else the OS hostname lower-cased as kubelet does. */
  name: string;
  /** The labels the kubelet registers with (`--node-labels`). */
  labels: Record<string, string>;
  /** Its `metal3.io/uuid` label (CAPM3 finds a host's Node by the BareMetalHost UID there), if it has one. */
  uuid: string | null;
  /** The `spec.providerID` the kubelet creates the Node with (`--provider-id`); null without the flag. */
  providerID: string | null;
  /**
   * The InternalIP the kubelet reports, which the API server dials for port-forwards: the
   * inventory's first loopback IPv4, else 127.0.0.1. The simulated servers all run on this
   * machine, so an address from another range (an inspection fixture's 192.168.x) is never one
   * their kubelet can be reached at.
   */
  internalIp: string;
  /** Where the name came from, for logs. */
  nameSource: 'kubeadm' | 'user-data' | 'meta-data-hostname' | 'meta-data-name' | 'system-name';
}

function nodeName(candidate: unknown): string | undefined {
  if (typeof candidate !== 'string') return undefined;
  const name = candidate.trim().toLowerCase();
  return isNodeName(name) ? name : undefined;
}

/** Where CAPM3 looks for the BareMetalHost's UID on a Node. */
const NODE_UUID_LABEL = 'metal3.io/uuid';

/**
 * Name choice: kubeadm's `nodeRegistration.name`, then the cloud-init user data's hostname
 * (`hostname:`/`fqdn:`), then meta_data's `hostname`/`local-hostname`, then its `name`, then
 * the system's name. A candidate that is no valid Node name is skipped. Labels: kubeadm's
 * `--node-labels` when kubeadm set the kubelet up; any other image's kubelet is taken to be set
 * up as CAPM3's templates set it: `metal3.io/uuid=<meta_data uuid>`. A providerID only from
 * kubeadm's `--provider-id`.
 */
export function nodeIdentity(options: {
  /** With user data as cloud-init runs it (Jinja rendered). */
  configDrive: ConfigDriveContents | undefined;
  systemName: string;
  inventory: Pick<Inventory, 'interfaces'>;
  /** What kubeadm set the kubelet up with, when the user data runs kubeadm. */
  kubelet?: KubeletRegistration | undefined;
}): NodeIdentity {
  const metaData = options.configDrive?.metaData ?? {};
  const candidates: [NodeIdentity['nameSource'], unknown][] = [
    ['kubeadm', options.kubelet?.name],
    ['user-data', userDataHostname(options.configDrive?.userData)],
    ['meta-data-hostname', metaDataHostname(metaData)],
    ['meta-data-name', metaData.name],
    ['system-name', options.systemName],
  ];
  let chosen: { name: string; nameSource: NodeIdentity['nameSource'] } | undefined;
  for (const [source, candidate] of candidates) {
    const name = nodeName(candidate);
    if (name !== undefined) {
      chosen = { name, nameSource: source };
      break;
    }
  }
  // The system name is validated by the config only as non-empty; keep something registrable.
  chosen ??= { name: options.systemName.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'node', nameSource: 'system-name' };
  const metaDataUuid = typeof metaData.uuid === 'string' && isLabelValue(metaData.uuid) ? metaData.uuid : null;
  const labels = options.kubelet?.labels ?? (metaDataUuid === null ? {} : { [NODE_UUID_LABEL]: metaDataUuid });
  const internalIp = options.inventory.interfaces.find((nic) => nic.ipv4_address?.startsWith('127.') === true)?.ipv4_address ?? '127.0.0.1';
  return { ...chosen, labels, uuid: labels[NODE_UUID_LABEL] ?? null, providerID: options.kubelet?.providerID ?? null, internalIp };
}
