import { BareMetalHostResource } from '../../api/baremetalhost.ts';
import { HostClaimResource } from '../../api/hostclaim.ts';
import { HostDeployPolicyResource } from '../../api/hostdeploypolicy.ts';
import type { Controller } from '../../runtime/controller.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import type { Manager } from '../../runtime/manager.ts';
import { deletionRequested, finalizerChanged, generationChanged, or } from '../../runtime/predicates.ts';
import { NamespaceResource } from '../../runtime/resources.ts';
import { HostClaimReconciler } from './reconciler.ts';

export const CONTROLLER_NAME = 'hostclaim';
export const EVENT_SOURCE = 'metal3-hostclaim-controller';

/** BMO's BareMetalHostToHostClaims: a host names the HostClaim holding it in its consumerRef. */
function claimHolding(host: KubeObject): { namespace: string; name: string }[] {
  const ref = (host.spec as { consumerRef?: { kind?: string; apiVersion?: string; name?: string; namespace?: string } } | undefined)?.consumerRef;
  if (ref?.kind !== HostClaimResource.kind || !(ref.apiVersion ?? '').startsWith(`${HostClaimResource.group}/`) || !ref.name) return [];
  return [{ namespace: ref.namespace ?? '', name: ref.name }];
}

/** BMO's HostClaim controller, set up only with --hostclaims; its spec, deletion and finalizers, the host it holds and, while it waits, any HostDeployPolicy trigger it. */
export function setupHostClaimController(manager: Manager, options: { maxConcurrentReconciles: number }): Controller {
  const namespaces = manager.client(NamespaceResource);
  const claims = manager.informer(HostClaimResource);
  // A policy that changes may let a waiting claim in (BMO's claims only look again every 30 s).
  const waitingClaims = () => claims.list()
    .filter((claim) => !(claim.status as { bareMetalHost?: unknown } | undefined)?.bareMetalHost)
    .map((claim) => ({ namespace: claim.metadata.namespace ?? '', name: claim.metadata.name ?? '' }));
  const reconciler = new HostClaimReconciler({
    claims: { client: manager.client(HostClaimResource), cache: claims },
    hosts: { client: manager.client(BareMetalHostResource), cache: manager.informer(BareMetalHostResource) },
    policies: manager.informer(HostDeployPolicyResource),
    namespaceLabels: async (name, signal) => (await namespaces.get({ name }, { signal })).metadata.labels ?? {},
    events: manager.eventRecorder(EVENT_SOURCE),
  });
  return manager
    .controller(CONTROLLER_NAME)
    .for(HostClaimResource, { predicates: [or(generationChanged, deletionRequested, finalizerChanged)] })
    .watches(BareMetalHostResource, claimHolding)
    .watches(HostDeployPolicyResource, waitingClaims)
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(reconciler);
}
