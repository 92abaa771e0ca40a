/** The steps IPA's GenericHardwareManager advertises (hardware.py), keyed like IPA's answer. */

export interface AgentStep {
  step: string;
  priority: number;
  interface: 'deploy' | 'raid';
  reboot_requested: boolean;
  abortable?: boolean;
  argsinfo?: Record<string, unknown>;
}

export const HARDWARE_MANAGER_VERSIONS = { generic_hardware_manager: '1.2', custom_deploy_hardware_manager: '1.0' } as const;
const MANAGER = 'GenericHardwareManager';
/**
 * A site's own hardware manager, as an IPA image built for custom deploys carries: its deploy
 * steps are what BareMetalHost `customDeploy.method` names (Ironic's custom-agent deploy).
 */
const CUSTOM_MANAGER = 'CustomDeployHardwareManager';
export const CUSTOM_DEPLOY_STEPS = ['install_coreos'] as const;

const RAID_APPLY_CONFIGURATION_ARGSINFO = {
  raid_config: { description: 'The RAID configuration to apply.', required: true },
  delete_existing: {
    description:
      "Setting this to 'True' indicates to delete existing RAID configuration prior to creating the new configuration.",
    required: false,
  },
};

const CLEAN_UEFI_NVRAM_ARGSINFO = {
  match_patterns: {
    description: 'A list of regular expressions to match against UEFI boot device names.',
    required: false,
  },
};

const INJECT_FILES_ARGSINFO = {
  files: { description: 'Files to inject, a list of file structures.', required: false },
  verify_ca: { description: 'Whether to verify TLS certificates when downloading.', required: false },
};

function step(name: string, priority: number, iface: 'deploy' | 'raid', extra: Partial<AgentStep> = {}): AgentStep {
  return { step: name, priority, interface: iface, reboot_requested: false, ...extra };
}

const burnin = (abortable: boolean) =>
  ['burnin_cpu', 'burnin_gpu', 'burnin_disk', 'burnin_memory', 'burnin_network'].map((name) =>
    step(name, 0, 'deploy', abortable ? { abortable: true } : {}),
  );

export function cleanSteps(): Record<string, AgentStep[]> {
  return {
    [MANAGER]: [
      step('erase_devices', 10, 'deploy', { abortable: true }),
      step('erase_devices_metadata', 99, 'deploy', { abortable: true }),
      step('erase_devices_express', 0, 'deploy', { abortable: true }),
      step('erase_pstore', 0, 'deploy', { abortable: true }),
      step('clean_uefi_nvram', 0, 'deploy', { abortable: true, argsinfo: CLEAN_UEFI_NVRAM_ARGSINFO }),
      step('delete_configuration', 0, 'raid', { abortable: true }),
      step('create_configuration', 0, 'raid', { abortable: true }),
      ...burnin(true),
    ],
  };
}

export function deploySteps(): Record<string, AgentStep[]> {
  return {
    [MANAGER]: [
      step('erase_devices_metadata', 0, 'deploy'),
      step('apply_configuration', 0, 'raid', { argsinfo: RAID_APPLY_CONFIGURATION_ARGSINFO }),
      step('clean_uefi_nvram', 0, 'deploy', { argsinfo: CLEAN_UEFI_NVRAM_ARGSINFO }),
      // Proxied through Ironic's out-of-band step of the same name, so the priority does not matter.
      step('write_image', 0, 'deploy'),
      step('inject_files', 0, 'deploy', { argsinfo: INJECT_FILES_ARGSINFO }),
      step('execute_bootc_install', 0, 'deploy'),
    ],
    // Priority 0: run only when a deployment asks for it.
    [CUSTOM_MANAGER]: CUSTOM_DEPLOY_STEPS.map((name) => step(name, 0, 'deploy')),
  };
}

export function serviceSteps(): Record<string, AgentStep[]> {
  return {
    [MANAGER]: [
      step('delete_configuration', 0, 'raid', { abortable: true }),
      step('apply_configuration', 0, 'raid', { argsinfo: RAID_APPLY_CONFIGURATION_ARGSINFO }),
      step('create_configuration', 0, 'raid', { abortable: true }),
      ...burnin(true).filter((s) => s.step !== 'burnin_disk'),
      step('write_image', 0, 'deploy'),
      step('inject_files', 0, 'deploy', { argsinfo: INJECT_FILES_ARGSINFO }),
    ],
  };
}
