import type { BareMetalHost } from '../../../operator/api/index.ts';
import { LabelSelectorError, compileLabelSelector } from '../../../operator/runtime/index.ts';
import { freeToClaim } from '../../baremetal/index.ts';
import type { Metal3MachineTemplate } from '../../api/index.ts';

/** One template's count: the hosts its machines could claim right now. */
export interface TemplateAvailableHosts {
  namespace: string;
  template: string;
  hosts: number;
}

/**
 * For each template, the hosts of its namespace that its `spec.template.spec.hostSelector`
 * matches and that a new machine could claim (the claiming's own eligibility). A selector that
 * does not compile matches nothing its machines could take, so it counts 0.
 */
export function availableHostsPerTemplate(
  templates: readonly Metal3MachineTemplate[],
  hosts: readonly BareMetalHost[],
): TemplateAvailableHosts[] {
  const freeByNamespace = new Map<string, BareMetalHost[]>();
  for (const host of hosts) {
    if (!freeToClaim(host)) continue;
    const namespace = host.metadata.namespace ?? '';
    freeByNamespace.set(namespace, [...(freeByNamespace.get(namespace) ?? []), host]);
  }
  return templates.map((template) => {
    const namespace = template.metadata.namespace ?? '';
    const free = freeByNamespace.get(namespace) ?? [];
    return { namespace, template: template.metadata.name ?? '', hosts: countMatching(template, free) };
  });
}

function countMatching(template: Metal3MachineTemplate, hosts: readonly BareMetalHost[]): number {
  try {
    const selector = compileLabelSelector(template.spec.template.spec.hostSelector);
    return hosts.filter((host) => selector.matches(host.metadata.labels)).length;
  } catch (error) {
    if (error instanceof LabelSelectorError) return 0;
    throw error;
  }
}
