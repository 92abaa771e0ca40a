import { CRD_OMIT_MARKER, CRD_REQUIRED_MARKER } from './markers.ts';
import { isJsonSchema, STRUCTURAL_KEYS, type JsonSchema, type StructuralSchema } from './json-schema.ts';
import { mergeUnion } from './merge-union.ts';
import { re2Incompatibility } from './re2-pattern.ts';

const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * Turns z.toJSONSchema output (openapi-3.0 target, io 'input') into a Kubernetes structural
 * schema: every node typed, no junctors, no `properties` next to `additionalProperties`,
 * loose objects as preserve-unknown-fields, and our CRD markers resolved. Throws with the
 * JSON path of anything the API server would reject rather than emitting it.
 */
export function structuralize(node: JsonSchema, path = '$'): StructuralSchema {
  for (const forbidden of ['$ref', '$defs', 'definitions', 'allOf', 'not', 'patternProperties']) {
    if (forbidden in node) throw new Error(`${path}: '${forbidden}' cannot be expressed in a structural schema`);
  }
  const { anyOf, oneOf, ...rest } = node;
  const union = anyOf ?? oneOf;
  if (union !== undefined) return structuralizeUnion(rest, union, path);
  if (rest['x-kubernetes-int-or-string'] === true) return withoutType(rest, path);

  const out: JsonSchema = { ...rest };
  resolveOmissions(out);
  if ('const' in out) {
    out.enum = [out.const];
    delete out.const;
  }
  if (out.type === 'integer') dropSafeIntegerBounds(out);
  if (Object.keys(out).every((key) => key === 'description' || key === CRD_REQUIRED_MARKER)) {
    // z.unknown()/z.any(): arbitrary JSON is kept verbatim.
    out['x-kubernetes-preserve-unknown-fields'] = true;
  }
  if (out.type === 'object') structuralizeObject(out, path);
  if (out.type === 'array') structuralizeArray(out, path);
  if (typeof out.pattern === 'string') {
    const pattern = fromJsRegexSource(out.pattern);
    out.pattern = pattern;
    const problem = re2Incompatibility(pattern);
    if (problem) throw new Error(`${path}: pattern uses ${problem}, which RE2 does not support`);
  }
  if (out.uniqueItems === true) throw new Error(`${path}: uniqueItems: true is not allowed in CRD schemas`);
  delete out.uniqueItems;
  checkKeys(out, path);
  if (out.type === undefined && out['x-kubernetes-preserve-unknown-fields'] !== true) {
    throw new Error(`${path}: every node of a structural schema needs a type`);
  }
  return out as StructuralSchema;
}

function structuralizeUnion(rest: JsonSchema, union: unknown, path: string): StructuralSchema {
  if (!Array.isArray(union) || !union.every(isJsonSchema)) throw new Error(`${path}: malformed anyOf/oneOf`);
  if (rest['x-kubernetes-int-or-string'] === true) return withoutType(rest, path);
  const branches = union.map((branch, index) => structuralize(branch, `${path}|${index}`));
  const merged = mergeUnion(branches, path);
  const outer: JsonSchema = { ...rest };
  resolveOmissions(outer);
  const result = { ...merged, ...outer } as JsonSchema;
  checkKeys(result, path);
  return result as StructuralSchema;
}

/** int-or-string nodes carry no type; their integer/string branches only bloat the schema. */
function withoutType(node: JsonSchema, path: string): StructuralSchema {
  const out: JsonSchema = { ...node };
  resolveOmissions(out);
  for (const key of ['type', 'format', 'minimum', 'maximum', 'pattern', 'minLength', 'maxLength', 'enum']) delete out[key];
  checkKeys(out, path);
  return out as StructuralSchema;
}

function resolveOmissions(node: JsonSchema): void {
  const omitted = node[CRD_OMIT_MARKER];
  if (Array.isArray(omitted)) for (const keyword of omitted) delete node[keyword as string];
  delete node[CRD_OMIT_MARKER];
}

/** RegExp#source escapes `/` as `\/`; Go needs no escape there, so emit upstream's spelling. */
function fromJsRegexSource(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\' && i + 1 < source.length) {
      const next = source[++i]!;
      out += next === '/' ? '/' : char + next;
    } else {
      out += char;
    }
  }
  return out;
}

function dropSafeIntegerBounds(node: JsonSchema): void {
  if (node.minimum === -SAFE_INTEGER_BOUND) delete node.minimum;
  if (node.maximum === SAFE_INTEGER_BOUND) delete node.maximum;
}

function structuralizeObject(node: JsonSchema, path: string): void {
  const properties = isJsonSchema(node.properties) ? node.properties : undefined;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  if (properties) {
    const converted: Record<string, StructuralSchema> = {};
    for (const [name, child] of Object.entries(properties)) {
      if (!isJsonSchema(child)) throw new Error(`${path}.${name}: malformed property schema`);
      const schema = structuralize(child, `${path}.${name}`) as JsonSchema;
      if (schema[CRD_REQUIRED_MARKER] === true) required.add(name);
      delete schema[CRD_REQUIRED_MARKER];
      converted[name] = schema as StructuralSchema;
    }
    node.properties = converted;
  }
  if (required.size > 0) node.required = [...required].sort();
  else delete node.required;

  const additional = node.additionalProperties;
  const hasProperties = properties !== undefined && Object.keys(properties).length > 0;
  if (additional === false) {
    // z.object output mode; pruning already drops unknown fields.
    delete node.additionalProperties;
  } else if (additional === true || (isJsonSchema(additional) && Object.keys(additional).length === 0)) {
    // z.looseObject / z.record(z.string(), z.unknown()): keep unknown fields as they are.
    delete node.additionalProperties;
    node['x-kubernetes-preserve-unknown-fields'] = true;
  } else if (isJsonSchema(additional)) {
    if (hasProperties) throw new Error(`${path}: properties and a typed additionalProperties are mutually exclusive`);
    node.additionalProperties = structuralize(additional, `${path}.*`);
  }
  if (!hasProperties) delete node.properties;
}

function structuralizeArray(node: JsonSchema, path: string): void {
  if (!isJsonSchema(node.items)) throw new Error(`${path}: arrays need a single items schema`);
  node.items = structuralize(node.items, `${path}[]`);
}

function checkKeys(node: JsonSchema, path: string): void {
  for (const key of Object.keys(node)) {
    if (!STRUCTURAL_KEYS.has(key) && key !== CRD_REQUIRED_MARKER) {
      throw new Error(`${path}: '${key}' is not a CRD schema keyword`);
    }
  }
}
