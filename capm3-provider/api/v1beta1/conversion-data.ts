/**
 * Cluster API's round-trip annotation: an object read in v1beta1 carries its v1beta2 self here,
 * so what v1beta1 cannot say (a template's metadata, `provisioned: false`) survives the way back.
 */
export const CONVERSION_DATA_ANNOTATION = 'cluster.x-k8s.io/conversion-data';

export type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The metadata without the annotation, and the v1beta2 object it held (undefined when absent or unreadable). */
export function takeConversionData(metadata: JsonObject): { metadata: JsonObject; restored: JsonObject | undefined } {
  const annotations = isObject(metadata.annotations) ? metadata.annotations : undefined;
  const text = annotations?.[CONVERSION_DATA_ANNOTATION];
  if (annotations === undefined || typeof text !== 'string') return { metadata, restored: undefined };
  const { [CONVERSION_DATA_ANNOTATION]: _taken, ...rest } = annotations;
  const { annotations: _annotations, ...others } = metadata;
  const stripped = Object.keys(rest).length > 0 ? { ...others, annotations: rest } : others;
  try {
    const parsed: unknown = JSON.parse(text);
    return { metadata: stripped, restored: isObject(parsed) ? parsed : undefined };
  } catch {
    // A hand-edited annotation is dropped, not an error: it only restores what v1beta1 cannot say.
    return { metadata: stripped, restored: undefined };
  }
}

/** The metadata with the hub object (without its metadata) in the annotation. */
export function withConversionData(metadata: JsonObject, hub: JsonObject): JsonObject {
  const { metadata: _metadata, ...data } = hub;
  const annotations = isObject(metadata.annotations) ? metadata.annotations : {};
  return { ...metadata, annotations: { ...annotations, [CONVERSION_DATA_ANNOTATION]: JSON.stringify(data) } };
}

/** A nested object of the restored data, e.g. `['status', 'initialization']`; undefined when any step is missing. */
export function restoredAt(restored: JsonObject | undefined, path: readonly string[]): JsonObject | undefined {
  let current: unknown = restored;
  for (const key of path) current = isObject(current) ? current[key] : undefined;
  return isObject(current) ? current : undefined;
}
