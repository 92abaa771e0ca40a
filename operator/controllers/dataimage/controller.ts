import { BareMetalHostResource } from '../../api/baremetalhost.ts';
import { DataImageResource } from '../../api/dataimage.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import type { Controller } from '../../runtime/controller.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { objectName } from '../../runtime/kube-object.ts';
import type { Manager } from '../../runtime/manager.ts';
import { deletionRequested, finalizerChanged, generationChanged, annotationChanged, or } from '../../runtime/predicates.ts';
import type { Predicate } from '../../runtime/predicates.ts';
import { DataImageReconciler } from './reconciler.ts';

export const CONTROLLER_NAME = 'dataimage';
export const EVENT_SOURCE = 'metal3-dataimage-controller';

const poweredOn = (host: KubeObject): unknown => (host.status as { poweredOn?: boolean } | undefined)?.poweredOn;

/** The host powered on (after which a deleted DataImage may be detached) or was paused, detached or resumed. */
const hostPowerOrAnnotationsChanged: Predicate = or(annotationChanged, { update: (oldHost, newHost) => poweredOn(oldHost) !== poweredOn(newHost) });

/** Reconciles per DataImage; its spec, deletion and finalizers and its host's power and annotations trigger it. */
export function setupDataImageController(manager: Manager, options: { provisioner: Provisioner; maxConcurrentReconciles: number }): Controller {
  const reconciler = new DataImageReconciler({
    images: { client: manager.client(DataImageResource), cache: manager.informer(DataImageResource) },
    hosts: manager.informer(BareMetalHostResource),
    provisioner: options.provisioner,
    events: manager.eventRecorder(EVENT_SOURCE),
  });
  return manager
    .controller(CONTROLLER_NAME)
    .for(DataImageResource, { predicates: [or(generationChanged, deletionRequested, finalizerChanged)] })
    .watches(BareMetalHostResource, (host) => [objectName(host)], { predicates: [hostPowerOrAnnotationsChanged] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(reconciler);
}
