import { BareMetalHostResource } from '../../api/baremetalhost.ts';
import { BMCEventSubscriptionResource } from '../../api/bmceventsubscription.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import type { Controller } from '../../runtime/controller.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { objectName } from '../../runtime/kube-object.ts';
import type { Manager } from '../../runtime/manager.ts';
import { deletionRequested, finalizerChanged, generationChanged, or } from '../../runtime/predicates.ts';
import type { Predicate } from '../../runtime/predicates.ts';
import { SecretResource } from '../../runtime/resources.ts';
import type { HeaderSecret } from './http-headers.ts';
import { BMCEventSubscriptionReconciler } from './reconciler.ts';

export const CONTROLLER_NAME = 'bmceventsubscription';
export const EVENT_SOURCE = 'metal3-bmceventsubscription-controller';

const nodeId = (host: KubeObject): unknown => (host.status as { provisioning?: { ID?: string } } | undefined)?.provisioning?.ID;

/** The host appeared, got its Ironic node or went: the moments a waiting subscription can go on. */
const hostNodeChanged: Predicate = { update: (oldHost, newHost) => nodeId(oldHost) !== nodeId(newHost) };

/** Reconciles per BMCEventSubscription; its spec, deletion and finalizers, and its host's node, trigger it. */
export function setupBMCEventSubscriptionController(manager: Manager, options: { provisioner: Provisioner; maxConcurrentReconciles: number }): Controller {
  const subscriptions = manager.informer(BMCEventSubscriptionResource);
  const reconciler = new BMCEventSubscriptionReconciler({
    subscriptions: { client: manager.client(BMCEventSubscriptionResource), cache: subscriptions },
    hosts: manager.informer(BareMetalHostResource),
    // Read when a subscription is made, not cached: the user's Secret is not one the operator claims.
    secrets: manager.client<HeaderSecret>(SecretResource),
    provisioner: options.provisioner,
    events: manager.eventRecorder(EVENT_SOURCE),
  });
  const naming = (host: KubeObject) => subscriptions.list(host.metadata.namespace)
    .filter((subscription) => (subscription.spec as { hostName?: string } | undefined)?.hostName === host.metadata.name)
    .map(objectName);
  return manager
    .controller(CONTROLLER_NAME)
    .for(BMCEventSubscriptionResource, { predicates: [or(generationChanged, deletionRequested, finalizerChanged)] })
    .watches(BareMetalHostResource, naming, { predicates: [hostNodeChanged] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(reconciler);
}
