import type { z } from 'zod';
import type { JsonObject } from './conversion-data.ts';

/** A conversion that cannot be done: the API server passes the message on to the client. */
export class ConversionError extends Error {}

export interface ObjectParts {
  spec: unknown;
  status: unknown;
}

export interface ConvertedParts {
  spec: unknown;
  status: unknown;
}

/** One kind's conversions between v1beta1 and v1beta2 (the hub, the storage version). */
export interface KindConversion {
  kind: string;
  /** CAPM3 keeps the v1beta2 object in the annotation only for kinds v1beta1 cannot fully say. */
  keepsConversionData: boolean;
  up(parts: ObjectParts, restored: JsonObject | undefined): ConvertedParts;
  down(parts: ObjectParts): ConvertedParts;
}

interface ConversionDefinition<Spec1 extends z.ZodType, Status1 extends z.ZodType, Spec2 extends z.ZodType, Status2 extends z.ZodType> {
  kind: string;
  keepsConversionData: boolean;
  v1beta1: { spec: Spec1; status: Status1 };
  v1beta2: { spec: Spec2; status: Status2 };
  specUp(spec: z.output<Spec1>, restored: JsonObject | undefined): z.input<Spec2>;
  statusUp(status: z.output<Status1>, restored: JsonObject | undefined): z.input<Status2>;
  specDown(spec: z.output<Spec2>): z.input<Spec1>;
  statusDown(status: z.output<Status2>): z.input<Status1>;
}

function parsePart<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues.map((issue) => `${[where, ...issue.path].join('.')}: ${issue.message}`).join('; ');
  throw new ConversionError(detail);
}

/** A kind's conversion from typed functions; each side is read with its version's schema first, so bad input names its field. */
export function defineConversion<Spec1 extends z.ZodType, Status1 extends z.ZodType, Spec2 extends z.ZodType, Status2 extends z.ZodType>(
  definition: ConversionDefinition<Spec1, Status1, Spec2, Status2>,
): KindConversion {
  const { v1beta1, v1beta2 } = definition;
  return {
    kind: definition.kind,
    keepsConversionData: definition.keepsConversionData,
    up: (parts, restored) => ({
      spec: parts.spec === undefined ? undefined : definition.specUp(parsePart(v1beta1.spec, parts.spec, 'spec'), restored),
      status: parts.status === undefined ? undefined : definition.statusUp(parsePart(v1beta1.status, parts.status, 'status'), restored),
    }),
    down: (parts) => ({
      spec: parts.spec === undefined ? undefined : definition.specDown(parsePart(v1beta2.spec, parts.spec, 'spec')),
      status: parts.status === undefined ? undefined : definition.statusDown(parsePart(v1beta2.status, parts.status, 'status')),
    }),
  };
}
