import { BareMetalHostResource } from '../../api/baremetalhost.ts';
import { FirmwareSchemaResource } from '../../api/firmwareschema.ts';
import { HostFirmwareSettingsResource } from '../../api/hostfirmwaresettings.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import type { Controller } from '../../runtime/controller.ts';
import type { ResourceType } from '../../runtime/kube-object.ts';
import type { Reconciler } from '../../runtime/reconciler.ts';
import { objectName } from '../../runtime/kube-object.ts';
import type { Manager } from '../../runtime/manager.ts';
import { generationChanged } from '../../runtime/predicates.ts';
import type { Predicate } from '../../runtime/predicates.ts';
import { firmwareReadMarker, pausedOrDetachingChanged } from './host-readable.ts';
import { HostFirmwareSettingsReconciler } from './reconciler.ts';
import { FirmwareSchemaStore } from './schema-store.ts';

export const CONTROLLER_NAME = 'hostfirmwaresettings';
export const EVENT_SOURCE = 'metal3-hostfirmwaresettings-controller';

/**
 * A host got a node, moved to another state, or started or ended servicing: the moments an
 * operation that refreshes Ironic's copies can have ended, so the reconcilers look whether to read
 * (read-schedule.ts). Also a pause or detach annotation coming or going, which stops or resumes them.
 */
export const hostNodeOrStateChanged: Predicate = {
  update: (oldHost, newHost) => firmwareReadMarker(oldHost) !== firmwareReadMarker(newHost) || pausedOrDetachingChanged(oldHost, newHost),
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
    schemas: new FirmwareSchemaStore({
      client: manager.client(FirmwareSchemaResource), cache: manager.informer(FirmwareSchemaResource), clock: manager.clock,
      log: manager.logger.child({ component: 'firmware-schemas' }),
    }),
    provisioner: options.provisioner,
    events: manager.eventRecorder(EVENT_SOURCE),
    clock: manager.clock,
  });
  return perHostController(manager, { name: CONTROLLER_NAME, kind: HostFirmwareSettingsResource, reconciler, maxConcurrentReconciles: options.maxConcurrentReconciles });
}

/**
 * A controller keyed by BareMetalHost for a kind named after its host: host node or state
 * changes and spec edits of the kind trigger it, status writes do not.
 */
export function perHostController(
  manager: Manager,
  options: { name: string; kind: ResourceType; reconciler: Reconciler; maxConcurrentReconciles: number },
): Controller {
  return manager
    .controller(options.name)
    .for(BareMetalHostResource, { predicates: [hostNodeOrStateChanged] })
    .watches(options.kind, (object) => [objectName(object)], { predicates: [generationChanged] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(options.reconciler);
}
