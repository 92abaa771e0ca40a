// The BIOS and firmware steps preparing (manual cleaning) and servicing both run.
import type { CleanStep, Node } from '../../../ironic-client/index.ts';
import type { ProvisionerContext } from './context.ts';

export interface FirmwareChanges {
  firmwareSettings?: Array<{ name: string; value: string | number }>;
  firmwareUpdates?: Array<{ component: string; url: string }>;
}

/** `bios.apply_configuration` and `firmware.update`, for what there is to apply. */
export function firmwareSteps(changes: FirmwareChanges): CleanStep[] {
  const steps: CleanStep[] = [];
  if (changes.firmwareSettings?.length) {
    steps.push({ interface: 'bios', step: 'apply_configuration', args: { settings: changes.firmwareSettings } });
  }
  if (changes.firmwareUpdates?.length) {
    steps.push({ interface: 'firmware', step: 'update', args: { settings: changes.firmwareUpdates } });
  }
  return steps;
}

/**
 * Drops the BIOS settings Ironic already reports (it refreshes its copy after the step that
 * applied them), so a finished clean or service is not started again while the
 * HostFirmwareSettings status still shows the old values. One BIOS read, only when there are
 * settings to apply.
 */
export async function withUnappliedSettings<T extends FirmwareChanges>(context: ProvisionerContext, node: Node, changes: T): Promise<T> {
  if (!changes.firmwareSettings?.length) return changes;
  const current = new Map((await context.client.nodes.listBiosSettings(node.uuid)).map((setting) => [setting.name, setting.value]));
  const firmwareSettings = changes.firmwareSettings.filter((setting) => current.get(setting.name) !== String(setting.value));
  return { ...changes, firmwareSettings };
}
