import type { z } from 'zod';

/**
 * Meta keys that carry CRD-only intent through z.toJSONSchema. The post-processor
 * consumes them; they never reach the generated YAML.
 */
export const CRD_REQUIRED_MARKER = 'x-metal3-crd-required';
export const CRD_OMIT_MARKER = 'x-metal3-crd-omit';

/** Keywords zod may check while the CRD, to match BMO's, must not. */
export type OmittableKeyword = 'default' | 'enum';

/**
 * Lists the field in its parent's CRD `required` although zod accepts it missing.
 * BMO's Go types have non-omitempty status fields the API server insists on, while Go
 * itself reads a missing field as its zero value; `schema` should carry that zero value
 * as a default so both sides agree.
 */
export function crdRequired<T extends z.ZodType>(schema: T): T {
  return schema.meta({ [CRD_REQUIRED_MARKER]: true });
}

/** Keeps `keywords` out of this node of the CRD while zod still applies them when parsing. */
export function crdOmit<T extends z.ZodType>(schema: T, keywords: readonly OmittableKeyword[]): T {
  const already = schema.meta()?.[CRD_OMIT_MARKER];
  const merged = new Set([...(Array.isArray(already) ? (already as OmittableKeyword[]) : []), ...keywords]);
  return schema.meta({ [CRD_OMIT_MARKER]: [...merged].sort() });
}

/**
 * A `.default()`/`.prefault()` BMO applies in code (e.g. `BootMode()` reading "" as UEFI),
 * not through the CRD: zod fills it in when parsing, the stored object stays untouched.
 */
export function parseOnlyDefault<T extends z.ZodType>(schema: T): T {
  return crdOmit(schema, ['default']);
}
