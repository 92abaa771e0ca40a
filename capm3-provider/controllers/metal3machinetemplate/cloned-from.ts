import type { KubeObject } from '../../../operator/runtime/index.ts';
import { CLONED_FROM_GROUPKIND_ANNOTATION, CLONED_FROM_NAME_ANNOTATION, METAL3_MACHINE_TEMPLATE_GROUPKIND } from '../../api/index.ts';
import type { CleaningMode } from '../../api/index.ts';

/** The Metal3MachineTemplate Cluster API cloned this object from (its cloned-from annotations), if any. */
export function clonedFromTemplate(object: KubeObject): string | undefined {
  const annotations = object.metadata.annotations ?? {};
  if (annotations[CLONED_FROM_GROUPKIND_ANNOTATION] !== METAL3_MACHINE_TEMPLATE_GROUPKIND) return undefined;
  return annotations[CLONED_FROM_NAME_ANNOTATION] || undefined;
}

/**
 * The clones of `templateName` whose automatedCleaningMode differs from the template's. A
 * template without a mode imposes none (CAPM3 leaves the machines alone then).
 */
export function machinesToSync<T extends KubeObject & { spec: { automatedCleaningMode?: CleaningMode | undefined } }>(
  machines: readonly T[],
  template: { name: string; mode: CleaningMode | undefined },
): T[] {
  if (template.mode === undefined) return [];
  return machines.filter((m3m) => clonedFromTemplate(m3m) === template.name && m3m.spec.automatedCleaningMode !== template.mode);
}
