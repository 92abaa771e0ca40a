// BMO names nodes `<namespace>~<name>`; hosts registered by very old BMO used the bare name.
import type { HostIdentity } from '../provisioner.ts';

const SEPARATOR = '~';

export function ironicNodeName(host: Pick<HostIdentity, 'namespace' | 'name'>): string {
  return `${host.namespace}${SEPARATOR}${host.name}`;
}

/** Names to look a host's node up by, newest convention first. */
export function candidateNodeNames(host: Pick<HostIdentity, 'namespace' | 'name'>): string[] {
  const names = [ironicNodeName(host)];
  if (!host.name.includes(SEPARATOR)) names.push(host.name);
  return names;
}
