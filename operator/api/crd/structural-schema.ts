import { z } from 'zod';
import type { JsonSchema, StructuralSchema } from './json-schema.ts';
import { CRD_REQUIRED_MARKER } from './markers.ts';
import { structuralize } from './structuralize.ts';

/**
 * The structural CRD schema for a zod schema. `io: 'input'` keeps defaulted fields out of
 * `required` and emits no additionalProperties:false; inlining and throwing on cycles keep
 * `$ref` out, which Kubernetes forbids.
 */
export function toStructuralSchema(schema: z.ZodType): StructuralSchema {
  const json = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io: 'input',
    reused: 'inline',
    cycles: 'throw',
    unrepresentable: 'throw',
  }) as JsonSchema;
  const structural = structuralize(json);
  if (CRD_REQUIRED_MARKER in structural) throw new Error('crdRequired() only makes sense on an object property');
  return structural;
}
