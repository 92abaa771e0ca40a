import type { Informer, ReconcileContext, Reconciler, Request, ResourceClient, Result } from '../../../operator/runtime/index.ts';
import { isNotFound, objectName } from '../../../operator/runtime/index.ts';
import { CLUSTER_PAUSED_ANNOTATION, metal3MachineSchema, metal3MachineTemplateSchema } from '../../api/index.ts';
import type { Metal3Machine, Metal3MachineTemplate } from '../../api/index.ts';
import { clonedFromTemplate, machinesToSync } from './cloned-from.ts';

export interface TemplateDeps {
  templates: Informer<Metal3MachineTemplate>;
  metal3Machines: { client: ResourceClient<Metal3Machine>; cache: Informer<Metal3Machine> };
}

/**
 * CAPM3's Metal3MachineTemplate reconciler: the template's automatedCleaningMode is pushed to
 * every Metal3Machine cloned from it (the Metal3Machine controller passes it on to the host).
 */
export class Metal3MachineTemplateReconciler implements Reconciler {
  readonly #deps: TemplateDeps;

  constructor(deps: TemplateDeps) {
    this.#deps = deps;
  }

  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    const cached = this.#deps.templates.get(request);
    if (!cached) return {};
    const template = metal3MachineTemplateSchema.parse(cached);
    if (template.metadata.annotations?.[CLUSTER_PAUSED_ANNOTATION] !== undefined) {
      context.log.debug('paused; not propagating');
      return {};
    }
    const name = template.metadata.name ?? '';
    const mode = template.spec.template.spec.automatedCleaningMode;
    const clones = this.#deps.metal3Machines.cache.list(template.metadata.namespace)
      .filter((m3m) => clonedFromTemplate(m3m) === name)
      .map((m3m) => metal3MachineSchema.parse(m3m));
    for (const m3m of machinesToSync(clones, { name, mode })) {
      try {
        await this.#deps.metal3Machines.client.patch(objectName(m3m), { spec: { automatedCleaningMode: mode } },
          { type: 'merge', signal: context.signal });
      } catch (error) {
        if (isNotFound(error)) continue;
        throw error;
      }
      context.log.info('synchronized automatedCleaningMode from the template', { metal3Machine: m3m.metadata.name, automatedCleaningMode: mode });
    }
    return {};
  }
}
