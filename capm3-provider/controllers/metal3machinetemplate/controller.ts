import type { Controller, Manager, MapFunc } from '../../../operator/runtime/index.ts';
import { annotationChanged, generationChanged, or } from '../../../operator/runtime/index.ts';
import { BareMetalHostResource } from '../../../operator/api/index.ts';
import type { BareMetalHost } from '../../../operator/api/index.ts';
import { Metal3MachineResource, Metal3MachineTemplateResource } from '../../api/index.ts';
import type { Metal3Machine, Metal3MachineTemplate } from '../../api/index.ts';
import { availableHostsPerTemplate } from './available-hosts.ts';
import { clonedFromTemplate } from './cloned-from.ts';
import { createTemplateMetrics } from './metrics.ts';
import { Metal3MachineTemplateReconciler } from './reconciler.ts';

export const METAL3_MACHINE_TEMPLATE_CONTROLLER = 'metal3machinetemplate';

export interface Metal3MachineTemplateControllerOptions {
  maxConcurrentReconciles: number;
}

/**
 * Metal3MachineTemplates, woken by their own spec and by the Metal3Machines cloned from them;
 * also exports the free hosts per template, from the template and host caches. Not limited by
 * --watch-filter, as in CAPM3.
 */
export function setupMetal3MachineTemplateController(manager: Manager, options: Metal3MachineTemplateControllerOptions): Controller {
  const templates = manager.informer<Metal3MachineTemplate>(Metal3MachineTemplateResource);
  const hosts = manager.informer<BareMetalHost>(BareMetalHostResource);
  createTemplateMetrics(manager.registry, {
    counts: () => {
      if (!templates.hasSynced() || !hosts.hasSynced()) return undefined;
      return availableHostsPerTemplate(templates.list(), hosts.list());
    },
  });
  const reconciler = new Metal3MachineTemplateReconciler({
    templates,
    metal3Machines: { client: manager.client<Metal3Machine>(Metal3MachineResource), cache: manager.informer<Metal3Machine>(Metal3MachineResource) },
  });
  const machineToTemplate: MapFunc<Metal3Machine> = (m3m) => {
    const name = clonedFromTemplate(m3m);
    return name ? [{ namespace: m3m.metadata.namespace, name }] : [];
  };
  // Spec edits and (un)pausing matter; status writes do not.
  const changed = or(generationChanged, annotationChanged);
  return manager
    .controller(METAL3_MACHINE_TEMPLATE_CONTROLLER)
    .for(Metal3MachineTemplateResource, { predicates: [changed] })
    .watches(Metal3MachineResource, machineToTemplate, { predicates: [changed] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(reconciler);
}
