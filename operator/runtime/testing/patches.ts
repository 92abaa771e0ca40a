import { deepEqual } from '../deep-equal.ts';
import type { JsonPatchOperation } from '../resource-client.ts';

type Json = unknown;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 7386 JSON merge patch: objects merge, `null` deletes, everything else (lists too) replaces. */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

export class JsonPatchError extends Error {
  override name = 'JsonPatchError';
}

function parsePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer ${path}`);
  return path
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function resolveParent(doc: Json, tokens: string[], path: string): { parent: unknown; last: string } {
  let current = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isPlainObject(current)) current = current[token];
    else current = undefined;
    if (current === undefined) throw new JsonPatchError(`path ${path} does not exist`);
  }
  return { parent: current, last: tokens[tokens.length - 1] as string };
}

function valueAt(doc: Json, path: string): unknown {
  let current = doc;
  for (const token of parsePointer(path)) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isPlainObject(current)) current = current[token];
    else return undefined;
  }
  return current;
}

/** RFC 6902 JSON patch (add, remove, replace, test), enough for the API-server fake. */
export function applyJsonPatch(target: Json, operations: JsonPatchOperation[]): Json {
  let doc = structuredClone(target);
  for (const op of operations) {
    const tokens = parsePointer(op.path);
    if (op.op === 'test') {
      const actual = valueAt(doc, op.path);
      if (!deepEqual(actual, op.value)) throw new JsonPatchError(`testing value ${op.path} failed: test failed`);
      continue;
    }
    if (tokens.length === 0) {
      if (op.op === 'remove') throw new JsonPatchError('cannot remove the document root');
      doc = structuredClone(op.value);
      continue;
    }
    const { parent, last } = resolveParent(doc, tokens, op.path);
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(index) || index < 0 || index > parent.length) {
        throw new JsonPatchError(`index ${last} out of range at ${op.path}`);
      }
      if (op.op === 'add') parent.splice(index, 0, structuredClone(op.value));
      else if (index >= parent.length) throw new JsonPatchError(`path ${op.path} does not exist`);
      else if (op.op === 'remove') parent.splice(index, 1);
      else if (op.op === 'replace') parent[index] = structuredClone(op.value);
      else throw new JsonPatchError(`unsupported op ${op.op}`);
    } else if (isPlainObject(parent)) {
      if (op.op === 'add') parent[last] = structuredClone(op.value);
      else if (!(last in parent)) throw new JsonPatchError(`path ${op.path} does not exist`);
      else if (op.op === 'remove') delete parent[last];
      else if (op.op === 'replace') parent[last] = structuredClone(op.value);
      else throw new JsonPatchError(`unsupported op ${op.op}`);
    } else {
      throw new JsonPatchError(`path ${op.path} does not exist`);
    }
  }
  return doc;
}
