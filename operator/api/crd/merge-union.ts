import { isDeepStrictEqual } from 'node:util';
import type { StructuralSchema } from './json-schema.ts';

/**
 * Structural schemas forbid `type`, `properties` etc. inside anyOf/oneOf, so a union is
 * collapsed into one node that accepts every branch:
 * - null branches become `nullable: true`;
 * - integer | string becomes `x-kubernetes-int-or-string`;
 * - same-typed scalars merge their enums (any branch without an enum drops the enum);
 * - objects merge their properties; only fields every branch requires stay required
 *   (per-branch rules need CEL in x-kubernetes-validations).
 * Anything else cannot be represented and throws.
 */
export function mergeUnion(branches: StructuralSchema[], path: string): StructuralSchema {
  const nullable = branches.some(isNullBranch);
  const typed = branches.filter((branch) => !isNullBranch(branch));
  if (typed.length === 0) throw new Error(`${path}: a union of only null cannot be represented`);
  const merged = mergeTyped(typed, path);
  return nullable ? { ...merged, nullable: true } : merged;
}

function isNullBranch(branch: StructuralSchema): boolean {
  return branch.enum !== undefined && branch.enum.length === 1 && branch.enum[0] === null;
}

function mergeTyped(branches: StructuralSchema[], path: string): StructuralSchema {
  if (branches.length === 1) return branches[0]!;
  const types = new Set(branches.map((branch) => branch.type));
  if (types.size === 2 && types.has('integer') && types.has('string')) return { 'x-kubernetes-int-or-string': true };
  if (types.size !== 1) throw new Error(`${path}: cannot merge a union of types ${[...types].join(', ')}`);
  return branches.reduce((left, right) => mergePair(left, right, path));
}

function mergePair(left: StructuralSchema, right: StructuralSchema, path: string): StructuralSchema {
  if (isDeepStrictEqual(left, right)) return left;
  const { enum: leftEnum, properties: leftProps, required: leftRequired, description, ...leftRest } = left;
  const { enum: rightEnum, properties: rightProps, required: rightRequired, description: _, ...rightRest } = right;
  if (!isDeepStrictEqual(leftRest, rightRest)) {
    throw new Error(`${path}: union branches differ beyond enums and properties and cannot be merged`);
  }
  const merged: StructuralSchema = { ...leftRest };
  if (description !== undefined) merged.description = description;
  if (leftEnum && rightEnum) {
    merged.enum = [...leftEnum, ...rightEnum.filter((value) => !leftEnum.some((seen) => isDeepStrictEqual(seen, value)))];
  }
  if (leftProps || rightProps) merged.properties = mergeProperties(leftProps ?? {}, rightProps ?? {}, path);
  const required = (leftRequired ?? []).filter((name) => (rightRequired ?? []).includes(name));
  if (required.length > 0) merged.required = required;
  return merged;
}

function mergeProperties(
  left: Record<string, StructuralSchema>,
  right: Record<string, StructuralSchema>,
  path: string,
): Record<string, StructuralSchema> {
  const merged = { ...left };
  for (const [name, schema] of Object.entries(right)) {
    const existing = merged[name];
    merged[name] = existing ? mergePair(existing, schema, `${path}.${name}`) : schema;
  }
  return merged;
}
