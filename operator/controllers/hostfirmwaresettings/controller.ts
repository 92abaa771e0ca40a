import { BareMetalHostResource } from '../../api/baremetalhost.ts';
import { FirmwareSchemaResource } from '../../api/firmwareschema.ts';
import { HostFirmwareSettingsResource } from '../../api/hostfirmwaresettings.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import type { Controller } from '../../runtime/controller.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { objectName } from '../../runtime/kube-object.ts';
import type { Manager } from '../../runtime/manager.ts';
import { generationChanged } from '../../runtime/predicates.ts';
import type { Predicate } from '../../runtime/predicates.ts';
import { HostFirmwareSettingsReconciler } from './reconciler.ts';
import { FirmwareSchemaStore } from './schema-store.ts';

export const CONTROLLER_NAME = 'hostfirmwaresettings';
export const EVENT_SOURCE = 'metal3-hostfirmwaresettings-controller';

const nodeAndState = (host: KubeObject): string => {
  const provisioning = (host.status as { provisioning?: { ID?: string; state?: string } } | undefined)?.provisioning;
  return `${provisioning?.ID ?? ''}/${provisioning?.state ?? ''}`;
};

/** A host got a node or moved to another state: the moments Ironic refreshes its BIOS copy. */
export const hostNodeOrStateChanged: Predicate = {
  update: (oldHost, newHost) => nodeAndState(oldHost) !== nodeAndState(newHost),
  delete: () => false,
};

/**
 * Reconciles per BareMetalHost: host state changes and HostFirmwareSettings spec edits
 * (same name) trigger it; status writes do not.
 */
export function setupHostFirmwareSettingsController(manager: Manager, options: { provisioner: Provisioner; maxConcurrentReconciles: number }): Controller {
  const reconciler = new HostFirmwareSettingsReconciler({
    hosts: manager.informer(BareMetalHostResource),
    settings: { client: manager.client(HostFirmwareSettingsResource), cache: manager.informer(HostFirmwareSettingsResource) },
    schemas: new FirmwareSchemaStore({ client: manager.client(FirmwareSchemaResource), cache: manager.informer(FirmwareSchemaResource) }),
    provisioner: options.provisioner,
    events: manager.eventRecorder(EVENT_SOURCE),
    clock: manager.clock,
  });
  return manager
    .controller(CONTROLLER_NAME)
    .for(BareMetalHostResource, { predicates: [hostNodeOrStateChanged] })
    .watches(HostFirmwareSettingsResource, (settings) => [objectName(settings)], { predicates: [generationChanged] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(reconciler);
}
