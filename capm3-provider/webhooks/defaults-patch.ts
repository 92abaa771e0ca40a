import type { JsonPatchOperation } from '../../operator/runtime/index.ts';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 6901: `~` and `/` escaped in a path segment. */
const pointer = (segments: readonly string[]) => `/${segments.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

/**
 * The JSON Patch that sets `path` to `value` in `object` when it is unset (absent, or Go's zero
 * value `isZero` says), adding the parents it lacks. Nothing when already set, or when a parent is
 * not an object (the API server's schema refuses that).
 */
export function defaultAt(
  object: unknown,
  path: readonly string[],
  value: unknown,
  isZero: (current: unknown) => boolean = (current) => current === undefined,
): JsonPatchOperation[] {
  let current: unknown = object;
  for (const [depth, segment] of path.entries()) {
    if (!isRecord(current)) return [];
    if (!(segment in current)) {
      const nested = path.slice(depth + 1).reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
      return [{ op: 'add', path: pointer(path.slice(0, depth + 1)), value: nested }];
    }
    current = current[segment];
  }
  return isZero(current) ? [{ op: 'replace', path: pointer(path), value }] : [];
}

/** The defaults of several paths: each computed on the object with the ones before applied. */
export function defaultsAt(object: unknown, settings: readonly { path: readonly string[]; value: unknown; isZero?: (current: unknown) => boolean }[]): JsonPatchOperation[] {
  const working = structuredClone(object);
  const operations: JsonPatchOperation[] = [];
  for (const setting of settings) {
    const found = defaultAt(working, setting.path, setting.value, setting.isZero);
    for (const operation of found) applyAdd(working, setting.path, operation);
    operations.push(...found);
  }
  return operations;
}

/** Applies one of defaultAt's operations to the working copy, so later paths see the parents it added. */
function applyAdd(object: unknown, path: readonly string[], operation: JsonPatchOperation): void {
  const depth = operation.path.split('/').length - 2;
  let current = object as Record<string, unknown>;
  for (const segment of path.slice(0, depth)) current = current[segment] as Record<string, unknown>;
  current[path[depth] as string] = structuredClone(operation.value);
}
