import { BareMetalSwitchResource } from '../../api/baremetalswitch.ts';
import type { Controller } from '../../runtime/controller.ts';
import type { Manager } from '../../runtime/manager.ts';
import { generationChanged } from '../../runtime/predicates.ts';
import { SecretResource } from '../../runtime/resources.ts';
import { CLAIMED_SECRET_SELECTOR, SecretStore } from '../../secrets/index.ts';
import type { SecretObject } from '../../secrets/index.ts';
import { BareMetalSwitchReconciler } from './reconciler.ts';
import type { SwitchSecretNames } from './reconciler.ts';

export const CONTROLLER_NAME = 'baremetalswitch';
export const EVENT_SOURCE = 'metal3-baremetalswitch-controller';

/**
 * BMO's BareMetalSwitch controller, set up only with IRONIC_NETWORKING_ENABLED: switches (not
 * their own status writes) and the credentials Secrets they claimed, through the same labelled
 * Secret cache the hosts use.
 */
export function setupBareMetalSwitchController(manager: Manager, options: { names: SwitchSecretNames; maxConcurrentReconciles: number }): Controller {
  const reconciler = new BareMetalSwitchReconciler({
    switches: { client: manager.client(BareMetalSwitchResource), cache: manager.informer(BareMetalSwitchResource) },
    secrets: new SecretStore({
      client: manager.client<SecretObject>(SecretResource),
      cache: manager.informer<SecretObject>(SecretResource, { labelSelector: CLAIMED_SECRET_SELECTOR }),
    }),
    names: options.names,
    events: manager.eventRecorder(EVENT_SOURCE),
  });
  return manager
    .controller(CONTROLLER_NAME)
    .for(BareMetalSwitchResource, { predicates: [generationChanged] })
    .owns(SecretResource, { controllerOnly: false, labelSelector: CLAIMED_SECRET_SELECTOR })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(reconciler);
}
