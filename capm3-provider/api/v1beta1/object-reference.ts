import type { ObjectReference } from './common.ts';

interface NameAndNamespace {
  name?: string | undefined;
  namespace?: string | undefined;
}

/** v1beta2 keeps a reference's name and namespace only; an empty reference is none. */
export function referenceUp(reference: ObjectReference | undefined): NameAndNamespace | undefined {
  if (!reference?.name && !reference?.namespace) return undefined;
  return { ...(reference.name ? { name: reference.name } : {}), ...(reference.namespace ? { namespace: reference.namespace } : {}) };
}

export function referenceDown(reference: NameAndNamespace | undefined): ObjectReference | undefined {
  if (reference === undefined) return undefined;
  return { name: reference.name, namespace: reference.namespace };
}
