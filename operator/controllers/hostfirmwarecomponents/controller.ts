import { BareMetalHostResource } from '../../api/baremetalhost.ts';
import { HostFirmwareComponentsResource } from '../../api/hostfirmwarecomponents.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import type { Controller } from '../../runtime/controller.ts';
import type { Manager } from '../../runtime/manager.ts';
import { perHostController } from '../hostfirmwaresettings/index.ts';
import { HostFirmwareComponentsReconciler } from './reconciler.ts';

export const CONTROLLER_NAME = 'hostfirmwarecomponents';
export const EVENT_SOURCE = 'metal3-hostfirmwarecomponents-controller';

/** Reconciles per BareMetalHost (see perHostController). */
export function setupHostFirmwareComponentsController(manager: Manager, options: { provisioner: Provisioner; maxConcurrentReconciles: number }): Controller {
  const reconciler = new HostFirmwareComponentsReconciler({
    hosts: manager.informer(BareMetalHostResource),
    components: { client: manager.client(HostFirmwareComponentsResource), cache: manager.informer(HostFirmwareComponentsResource) },
    provisioner: options.provisioner,
    events: manager.eventRecorder(EVENT_SOURCE),
    clock: manager.clock,
  });
  return perHostController(manager, { name: CONTROLLER_NAME, kind: HostFirmwareComponentsResource, reconciler, maxConcurrentReconciles: options.maxConcurrentReconciles });
}
