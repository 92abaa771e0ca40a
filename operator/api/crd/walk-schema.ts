import type { StructuralSchema } from './json-schema.ts';

/** Visits every node of a structural schema with a readable path (`.spec.bmc`, `.nics[]`). */
export function walkSchema(schema: StructuralSchema, visit: (node: StructuralSchema, path: string) => void, path = ''): void {
  visit(schema, path);
  for (const [name, child] of Object.entries(schema.properties ?? {})) walkSchema(child, visit, `${path}.${name}`);
  if (schema.items) walkSchema(schema.items, visit, `${path}[]`);
  if (schema.additionalProperties) walkSchema(schema.additionalProperties, visit, `${path}.*`);
}

/** The node at a dotted path such as `.spec.raid.hardwareRAIDVolumes[]`; throws when absent. */
export function schemaAt(schema: StructuralSchema, path: string): StructuralSchema {
  let node = schema;
  for (const part of path.split(/(?=[.[])/).filter(Boolean)) {
    const next = part === '[]' ? node.items : node.properties?.[part.slice(1)];
    if (!next) throw new Error(`no schema at ${path} (stopped at ${part})`);
    node = next;
  }
  return node;
}
