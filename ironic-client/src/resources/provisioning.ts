// Provision state changes: PUT /v1/nodes/{node}/states/provision.
import type { CleanStep, ConfigDrive, DeployStep, ProvisionStateRequest, ProvisionVerb } from '../types.ts';
import type { ResourceContext } from './context.ts';

export interface ProvisionStateOptions {
  target: ProvisionVerb;
  /** Only with active (deploy)/rebuild: a URL, a base64 gzipped ISO, or an object Ironic builds one from. */
  configdrive?: string | ConfigDrive;
  /** Required for `clean` unless a runbook is given. */
  cleanSteps?: CleanStep[];
  /** Only with active/deploy/rebuild (e.g. BMO's custom deploy step). */
  deploySteps?: DeployStep[];
  /** Required for `service` unless a runbook is given. */
  serviceSteps?: CleanStep[];
  /** Skip booting the ramdisk for clean or service steps that do not need it. */
  disableRamdisk?: boolean;
  /** Required for `rescue`. */
  rescuePassword?: string;
  /** Runbook UUID or name (1.92), instead of clean or service steps. */
  runbook?: string;
}

export interface ProvisioningOperations {
  /** Starts the transition; Ironic answers 202 and the caller polls the node. */
  setProvisionState(nodeIdent: string, options: ProvisionStateOptions): Promise<void>;
}

// Ironic runs deploy/undeploy exactly like active/deleted, but its configdrive and deploy_steps
// checks (utils.check_allow_configdrive, check_allow_deploy_steps) accept only active and
// rebuild, so the older names are sent on the wire.
const WIRE_VERBS: Partial<Record<ProvisionVerb, ProvisionVerb>> = { deploy: 'active', undeploy: 'deleted' };

export function toProvisionStateRequest(options: ProvisionStateOptions): ProvisionStateRequest {
  const request: ProvisionStateRequest = { target: WIRE_VERBS[options.target] ?? options.target };
  if (options.configdrive !== undefined) request.configdrive = options.configdrive;
  if (options.cleanSteps !== undefined) request.clean_steps = options.cleanSteps;
  if (options.deploySteps !== undefined) request.deploy_steps = options.deploySteps;
  if (options.serviceSteps !== undefined) request.service_steps = options.serviceSteps;
  if (options.disableRamdisk !== undefined) request.disable_ramdisk = options.disableRamdisk;
  if (options.rescuePassword !== undefined) request.rescue_password = options.rescuePassword;
  if (options.runbook !== undefined) request.runbook = options.runbook;
  return request;
}

export function provisioningOperations({ transport }: ResourceContext): ProvisioningOperations {
  return {
    async setProvisionState(nodeIdent, options) {
      await transport.call('put', '/v1/nodes/{node_ident}/states/provision', {
        path: { node_ident: nodeIdent },
        body: toProvisionStateRequest(options),
      });
    },
  };
}
