// The Ironic implementation of Provisioner: one shared instance for all hosts; each verb is a
// small function of (context, options) in its own file.
import { IronicError } from '../../../ironic-client/index.ts';
import type { HostIdentity, Provisioner } from '../provisioner.ts';
import { adopt } from './adopt.ts';
import { createContext, forHost } from './context.ts';
import type { ProvisionerContext } from './context.ts';
import { attachDataImage, dataImageStatus, detachDataImage } from './data-image.ts';
import { deleteHostNode } from './delete.ts';
import { deprovision } from './deprovision.ts';
import { addEventSubscription, removeEventSubscription } from './event-subscription.ts';
import { nodeDigests } from './node-digests.ts';
import { ironicNodeName } from './node-name.ts';
import { firmwareComponents } from './firmware-components.ts';
import { firmwareSettings } from './firmware-settings.ts';
import { hardwareState } from './hardware-state.ts';
import { inspect } from './inspect.ts';
import { transient } from './ironic-errors.ts';
import { compileOptions } from './options.ts';
import type { IronicProvisionerOptions } from './options.ts';
import { powerOff, powerOn } from './power.ts';
import { prepare } from './prepare.ts';
import { provision } from './provision.ts';
import { register } from './register.ts';
import { service } from './service.ts';

/**
 * Runs one verb for one host. Client failures that no verb turned into a result (an outage,
 * a 5xx, an unexpected answer) become TransientProvisionerError; anything else is a bug and
 * propagates as is.
 */
async function run<T>(
  context: ProvisionerContext,
  verb: string,
  host: HostIdentity,
  body: (context: ProvisionerContext) => Promise<T>,
): Promise<T> {
  try {
    return await body(forHost(context, host, verb));
  } catch (error) {
    if (error instanceof IronicError) throw transient(`${verb} of ${host.namespace}/${host.name}`, error);
    throw error;
  }
}

export function createIronicProvisioner(options: IronicProvisionerOptions): Provisioner {
  const context = createContext(compileOptions(options));
  return {
    register: (o) => run(context, 'register', o.host, (c) => register(c, o)),
    inspect: (o) => run(context, 'inspect', o.host, (c) => inspect(c, o)),
    prepare: (o) => run(context, 'prepare', o.host, (c) => prepare(c, o)),
    service: (o) => run(context, 'service', o.host, (c) => service(c, o)),
    provision: (o) => run(context, 'provision', o.host, (c) => provision(c, o)),
    adopt: (o) => run(context, 'adopt', o.host, (c) => adopt(c, o)),
    deprovision: (o) => run(context, 'deprovision', o.host, (c) => deprovision(c, o)),
    powerOn: (o) => run(context, 'powerOn', o.host, (c) => powerOn(c, o)),
    powerOff: (o) => run(context, 'powerOff', o.host, (c) => powerOff(c, o)),
    hardwareState: (o) => run(context, 'hardwareState', o.host, (c) => hardwareState(c, o)),
    firmwareSettings: (o) => run(context, 'firmwareSettings', o.host, (c) => firmwareSettings(c, o)),
    firmwareComponents: (o) => run(context, 'firmwareComponents', o.host, (c) => firmwareComponents(c, o)),
    dataImageStatus: (o) => run(context, 'dataImageStatus', o.host, (c) => dataImageStatus(c, o)),
    attachDataImage: (o) => run(context, 'attachDataImage', o.host, (c) => attachDataImage(c, o)),
    detachDataImage: (o) => run(context, 'detachDataImage', o.host, (c) => detachDataImage(c, o)),
    addEventSubscription: (o) => run(context, 'addEventSubscription', o.host, (c) => addEventSubscription(c, o)),
    removeEventSubscription: (o) => run(context, 'removeEventSubscription', o.host, (c) => removeEventSubscription(c, o)),
    health: (o) => context.nodes.lastHealth(o.host.nodeId || ironicNodeName(o.host)),
    bmcProblem: (o) => context.nodes.lastBmcProblem(o.host.nodeId || ironicNodeName(o.host)),
    firmwareRefreshes: (o) => (o.host.nodeId ? context.firmwareRefreshes.refreshes(o.host.nodeId) : {}),
    nodeDigests: () => nodeDigests(context),
    lastNodeRead: (nodeId) => context.nodes.lastRead(nodeId),
    delete: (o) => run(context, 'delete', o.host, (c) => deleteHostNode(c, { ...o, force: false })),
    detach: (o) => run(context, 'detach', o.host, (c) => deleteHostNode(c, o)),
  };
}
