import { BareMetalHostResource } from '../../api/baremetalhost.ts';
import { HostFirmwareComponentsResource } from '../../api/hostfirmwarecomponents.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import type { Controller } from '../../runtime/controller.ts';
import { objectName } from '../../runtime/kube-object.ts';
import type { Manager } from '../../runtime/manager.ts';
import { generationChanged } from '../../runtime/predicates.ts';
import { hostNodeOrStateChanged } from '../hostfirmwaresettings/index.ts';
import { HostFirmwareComponentsReconciler } from './reconciler.ts';

export const CONTROLLER_NAME = 'hostfirmwarecomponents';
export const EVENT_SOURCE = 'metal3-hostfirmwarecomponents-controller';

/** Reconciles per BareMetalHost: host node or state changes, and spec edits of the HostFirmwareComponents. */
export function setupHostFirmwareComponentsController(manager: Manager, options: { provisioner: Provisioner; maxConcurrentReconciles: number }): Controller {
  const reconciler = new HostFirmwareComponentsReconciler({
    hosts: manager.informer(BareMetalHostResource),
    components: { client: manager.client(HostFirmwareComponentsResource), cache: manager.informer(HostFirmwareComponentsResource) },
    provisioner: options.provisioner,
    events: manager.eventRecorder(EVENT_SOURCE),
    clock: manager.clock,
  });
  return manager
    .controller(CONTROLLER_NAME)
    .for(BareMetalHostResource, { predicates: [hostNodeOrStateChanged] })
    .watches(HostFirmwareComponentsResource, (components) => [objectName(components)], { predicates: [generationChanged] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(reconciler);
}
