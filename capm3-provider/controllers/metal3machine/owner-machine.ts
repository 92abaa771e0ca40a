import { CLUSTER_API_GROUP } from '../../api/index.ts';
import type { Machine } from '../../api/index.ts';
import type { Informer, KubeObject } from '../../../operator/runtime/index.ts';

/** The Machine owning a Metal3Machine or a Metal3Remediation (ownerRef kind Machine in cluster.x-k8s.io), from the cache. */
export function ownerMachine(m3m: KubeObject, machines: Informer<Machine>): Machine | undefined {
  const ref = m3m.metadata.ownerReferences?.find((owner) => owner.kind === 'Machine' && owner.apiVersion.startsWith(`${CLUSTER_API_GROUP}/`));
  if (!ref) return undefined;
  const machine = machines.get({ namespace: m3m.metadata.namespace ?? '', name: ref.name });
  return machine && machine.metadata.uid === ref.uid ? machine : undefined;
}
