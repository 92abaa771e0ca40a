// JSON-patch operations for only what differs between the node and what we want (BMO's
// NodeUpdater), so an unchanged node is never written. Desired `undefined` leaves a field
// alone; `null` removes it when present.
import type { JsonPatchOperation } from '../../../ironic-client/index.ts';
import { deepEqual } from '../../runtime/deep-equal.ts';

export type DesiredValues = Record<string, unknown>;

export class NodePatch {
  readonly operations: JsonPatchOperation[] = [];

  get empty(): boolean {
    return this.operations.length === 0;
  }

  /** A top-level node field such as `name`, `automated_clean` or `instance_uuid`. */
  field(name: string, desired: unknown, current: unknown): this {
    this.#diff(`/${name}`, desired, current, current !== null && current !== undefined);
    return this;
  }

  /** Keys inside a dictionary field: `driver_info`, `instance_info`, `properties`. */
  section(section: 'driver_info' | 'instance_info' | 'properties', desired: DesiredValues, current: unknown): this {
    const existing = isRecord(current) ? current : {};
    for (const [key, value] of Object.entries(desired)) {
      this.#diff(`/${section}/${escapePointer(key)}`, value, existing[key], Object.hasOwn(existing, key));
    }
    return this;
  }

  /** The paths touched, for logs (values may hold credentials). */
  paths(): string[] {
    return this.operations.map((operation) => operation.path);
  }

  #diff(path: string, desired: unknown, current: unknown, present: boolean): void {
    if (desired === undefined) return;
    if (desired === null) {
      if (present) this.operations.push({ op: 'remove', path });
      return;
    }
    // `add` also replaces, so one op covers both cases (as BMO does).
    if (!present || !deepEqual(current, desired)) this.operations.push({ op: 'add', path, value: desired });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 6901: `~` and `/` in a key must be escaped inside a JSON pointer. */
function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
