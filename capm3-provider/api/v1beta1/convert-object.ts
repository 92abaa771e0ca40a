import { INFRASTRUCTURE_GROUP, INFRASTRUCTURE_VERSION } from '../group-version.ts';
import { V1BETA1 } from './common.ts';
import { takeConversionData, withConversionData } from './conversion-data.ts';
import type { JsonObject } from './conversion-data.ts';
import { ConversionError } from './define-conversion.ts';
import type { KindConversion } from './define-conversion.ts';
import { metal3ClusterConversion, metal3ClusterTemplateConversion } from './metal3cluster-conversion.ts';
import { metal3DataClaimConversion, metal3DataConversion, metal3DataTemplateConversion } from './metal3data-conversion.ts';
import { metal3MachineConversion, metal3MachineTemplateConversion } from './metal3machine-conversion.ts';
import { metal3RemediationConversion, metal3RemediationTemplateConversion } from './metal3remediation-conversion.ts';

const CONVERSIONS: ReadonlyMap<string, KindConversion> = new Map([
  metal3ClusterConversion, metal3ClusterTemplateConversion, metal3MachineConversion, metal3MachineTemplateConversion,
  metal3DataTemplateConversion, metal3DataConversion, metal3DataClaimConversion,
  metal3RemediationConversion, metal3RemediationTemplateConversion,
].map((conversion) => [conversion.kind, conversion]));

/** The kinds served in v1beta1 as well as v1beta2. */
export const CONVERTIBLE_KINDS: readonly string[] = [...CONVERSIONS.keys()];

const V1BETA1_API_VERSION = `${INFRASTRUCTURE_GROUP}/${V1BETA1}`;
const V1BETA2_API_VERSION = `${INFRASTRUCTURE_GROUP}/${INFRASTRUCTURE_VERSION}`;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function withParts(object: JsonObject, parts: { spec: unknown; status: unknown }): JsonObject {
  const { spec: _spec, status: _status, ...rest } = object;
  return { ...rest, ...(parts.spec === undefined ? {} : { spec: parts.spec }), ...(parts.status === undefined ? {} : { status: parts.status }) };
}

/**
 * One object in the version asked for, as CAPM3's conversion webhook gives it: only spec, status,
 * apiVersion and the conversion-data annotation change. Throws ConversionError, naming the object
 * and field, when the object cannot be converted.
 */
export function convertObject(object: unknown, desiredApiVersion: string): JsonObject {
  if (!isObject(object) || !isObject(object.metadata)) throw new ConversionError('not a Kubernetes object');
  const { apiVersion, kind, metadata } = object;
  const name = `${String(kind)} ${String(metadata.namespace ?? '')}/${String(metadata.name ?? metadata.generateName ?? '')}`;
  const conversion = typeof kind === 'string' ? CONVERSIONS.get(kind) : undefined;
  if (conversion === undefined) throw new ConversionError(`${name}: no conversion for kind ${String(kind)}`);
  const known = [V1BETA1_API_VERSION, V1BETA2_API_VERSION];
  if (typeof apiVersion !== 'string' || !known.includes(apiVersion)) throw new ConversionError(`${name}: cannot convert from ${String(apiVersion)}`);
  if (!known.includes(desiredApiVersion)) throw new ConversionError(`${name}: cannot convert to ${desiredApiVersion}`);
  if (apiVersion === desiredApiVersion) return object;
  const parts = { spec: object.spec, status: object.status };
  try {
    if (desiredApiVersion === V1BETA2_API_VERSION) {
      const { metadata: stripped, restored } = takeConversionData(metadata);
      return { ...withParts(object, conversion.up(parts, restored)), apiVersion: desiredApiVersion, metadata: stripped };
    }
    const converted = withParts(object, conversion.down(parts));
    const downMetadata = conversion.keepsConversionData ? withConversionData(metadata, object) : metadata;
    return { ...converted, apiVersion: desiredApiVersion, metadata: downMetadata };
  } catch (error) {
    if (error instanceof ConversionError) throw new ConversionError(`${name}: ${error.message}`);
    throw error;
  }
}
