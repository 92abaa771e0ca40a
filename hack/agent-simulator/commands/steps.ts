import { isDeepStrictEqual } from 'node:util';
import { AgentError, agentErrors } from '../agent-errors.ts';
import type { RamdiskAgent } from '../agent.ts';
import { hardwareSteps } from './hardware.ts';
import { cleanSteps, deploySteps, HARDWARE_MANAGER_VERSIONS, serviceSteps, type AgentStep } from './step-lists.ts';
import { asRecord, type CachedNode, type CommandDefinition, type CommandParams } from './types.ts';

type StepKind = 'clean' | 'deploy' | 'service';

const STEP_LISTS: Record<StepKind, () => Record<string, AgentStep[]>> = {
  clean: cleanSteps,
  deploy: deploySteps,
  service: serviceSteps,
};

const FAILURE_TYPES: Record<StepKind, { type: string; summary: string }> = {
  clean: { type: 'CleaningError', summary: 'Clean step failed' },
  deploy: { type: 'DeploymentError', summary: 'Deploy step failed' },
  service: { type: 'ServicingError', summary: 'Service step failed' },
};

/** IPA's hardware.cache_node: step commands carry the node, later commands read hints from it. */
function cacheNode(agent: RamdiskAgent, params: CommandParams): void {
  const node = asRecord(params.node);
  if (node !== undefined && typeof node.uuid === 'string') agent.node = node as CachedNode;
}

function getSteps(kind: StepKind): CommandDefinition {
  return {
    mode: 'sync',
    run: (agent, params) => {
      cacheNode(agent, params);
      return { [`${kind}_steps`]: STEP_LISTS[kind](), hardware_manager_version: HARDWARE_MANAGER_VERSIONS };
    },
  };
}

function executeStep(kind: StepKind): CommandDefinition {
  return {
    mode: 'async',
    run: async (agent, params) => {
      cacheNode(agent, params);
      const provided = params[`${kind}_version`];
      // Ironic sends the versions it saw in get_*_steps; a different agent must restart the process.
      if (provided !== undefined && provided !== null && !isDeepStrictEqual(provided, HARDWARE_MANAGER_VERSIONS)) {
        throw agentErrors.versionMismatch(HARDWARE_MANAGER_VERSIONS, provided);
      }
      const step = asRecord(params.step);
      if (step === undefined || typeof step.step !== 'string') {
        throw new Error(`Malformed ${kind}_step, no "step" key: ${JSON.stringify(params.step)}`);
      }
      const implementation = hardwareSteps[step.step];
      if (implementation === undefined) throw agentErrors.methodNotFound(step.step);
      let result: unknown;
      try {
        result = await implementation(agent, step.step, asRecord(step.args) ?? {});
      } catch (error) {
        if (error instanceof AgentError) throw error;
        const failure = FAILURE_TYPES[kind];
        throw new AgentError({
          ...failure,
          details: `Unexpected exception performing ${kind} step ${step.step}. ${(error as Error).name}: ${(error as Error).message}`,
        });
      }
      return { [`${kind}_result`]: result, [`${kind}_step`]: step };
    },
  };
}

export const cleanExtension = { get_clean_steps: getSteps('clean'), execute_clean_step: executeStep('clean') };
export const deployExtension = { get_deploy_steps: getSteps('deploy'), execute_deploy_step: executeStep('deploy') };
export const serviceExtension = {
  get_service_steps: getSteps('service'),
  execute_service_step: executeStep('service'),
};
