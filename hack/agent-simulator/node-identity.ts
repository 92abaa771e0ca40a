import { metaDataHostname, userDataHostname } from './cloud-init-hostname.ts';
import type { ConfigDriveContents } from './configdrive-contents.ts';
import type { Inventory } from './inventory-types.ts';

/** The Node the installed OS's kubelet registers. */
export interface NodeIdentity {
  /** Node name: the OS hostname, lower-cased as kubelet does. */
  name: string;
  /** `metal3.io/uuid` label value (the BareMetalHost's UID from meta_data.json), if usable as a label. */
  uuid: string | null;
  /**
   * The InternalIP the kubelet reports, which the API server dials for port-forwards: the
   * inventory's first loopback IPv4, else 127.0.0.1. The simulated servers all run on this
   * machine, so an address from another range (an inspection fixture's 192.168.x) is never one
   * their kubelet can be reached at.
   */
  internalIp: string;
  /** Where the name came from, for logs. */
  nameSource: 'user-data' | 'meta-data-hostname' | 'meta-data-name' | 'system-name';
}

/** Kubernetes object names (DNS-1123 subdomain). */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** Kubernetes label values. */
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function nodeName(candidate: unknown): string | undefined {
  if (typeof candidate !== 'string') return undefined;
  const name = candidate.trim().toLowerCase();
  return name.length <= 253 && DNS_SUBDOMAIN.test(name) ? name : undefined;
}

/**
 * Name choice: the cloud-init user data's hostname (`hostname:`/`fqdn:`), then meta_data's
 * `hostname`/`local-hostname`, then its `name`, then the system's name. A candidate that is
 * no valid Node name is skipped.
 */
export function nodeIdentity(options: {
  configDrive: ConfigDriveContents | undefined;
  systemName: string;
  inventory: Pick<Inventory, 'interfaces'>;
}): NodeIdentity {
  const metaData = options.configDrive?.metaData ?? {};
  const candidates: [NodeIdentity['nameSource'], unknown][] = [
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
  const uuid = typeof metaData.uuid === 'string' && metaData.uuid.length <= 63 && LABEL_VALUE.test(metaData.uuid) ? metaData.uuid : null;
  const internalIp = options.inventory.interfaces.find((nic) => nic.ipv4_address?.startsWith('127.') === true)?.ipv4_address ?? '127.0.0.1';
  return { ...chosen, uuid, internalIp };
}
