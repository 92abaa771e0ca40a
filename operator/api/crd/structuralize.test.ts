import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { crdOmit, crdRequired, parseOnlyDefault } from './markers.ts';
import { toStructuralSchema } from './structural-schema.ts';
import { structuralize } from './structuralize.ts';

describe('structural post-processing', () => {
  it('drops additionalProperties:false next to properties', () => {
    const out = structuralize({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false });
    expect(out).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });

  it('emits no additionalProperties for plain zod objects', () => {
    expect(toStructuralSchema(z.object({ a: z.string() }))).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
  });

  it('turns loose objects and raw JSON into preserve-unknown-fields', () => {
    const out = toStructuralSchema(
      z.object({
        metadata: z.looseObject({}),
        labelled: z.looseObject({ name: z.string().optional() }),
        raw: z.unknown(),
        anyMap: z.record(z.string(), z.unknown()),
      }),
    );
    expect(out.properties).toEqual({
      metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      labelled: { type: 'object', properties: { name: { type: 'string' } }, 'x-kubernetes-preserve-unknown-fields': true },
      raw: { 'x-kubernetes-preserve-unknown-fields': true },
      anyMap: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    });
  });

  it('keeps typed maps as additionalProperties', () => {
    expect(toStructuralSchema(z.record(z.string(), z.string()))).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
  });

  it('flattens a union of objects into one object; only common fields stay required', () => {
    const out = toStructuralSchema(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), name: z.string(), a: z.string() }),
        z.object({ kind: z.literal('b'), name: z.string(), b: z.int() }),
      ]),
    );
    expect(out).toEqual({
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['a', 'b'] },
        name: { type: 'string' },
        a: { type: 'string' },
        b: { type: 'integer' },
      },
      required: ['kind', 'name'],
    });
  });

  it('merges literal unions into one enum and nulls into nullable', () => {
    expect(toStructuralSchema(z.union([z.literal('x'), z.literal('y')]))).toEqual({ type: 'string', enum: ['x', 'y'] });
    expect(toStructuralSchema(z.union([z.string(), z.null()]))).toEqual({ type: 'string', nullable: true });
    expect(toStructuralSchema(z.string().nullable())).toEqual({ type: 'string', nullable: true });
  });

  it('collapses integer | string to int-or-string, with or without the meta hint', () => {
    const hinted = z.union([z.int().min(1), z.string()]).meta({ 'x-kubernetes-int-or-string': true, description: 'port' });
    expect(toStructuralSchema(hinted)).toEqual({ 'x-kubernetes-int-or-string': true, description: 'port' });
    expect(toStructuralSchema(z.union([z.int(), z.string()]))).toEqual({ 'x-kubernetes-int-or-string': true });
  });

  it('refuses unions it cannot represent', () => {
    expect(() => toStructuralSchema(z.union([z.string(), z.boolean()]))).toThrow(/cannot merge a union of types string, boolean/);
    expect(() =>
      toStructuralSchema(z.union([z.object({ a: z.string() }), z.object({ a: z.int() })])),
    ).toThrow(/\$\.a: union branches differ/);
  });

  it('strips the safe-integer bounds zod adds and keeps real ones', () => {
    expect(toStructuralSchema(z.int())).toEqual({ type: 'integer' });
    expect(toStructuralSchema(z.int().min(0).max(4094))).toEqual({ type: 'integer', minimum: 0, maximum: 4094 });
  });

  it('passes list-map and map-type hints through', () => {
    const list = z.array(z.object({ type: z.string() })).max(32).meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
    expect(toStructuralSchema(list)).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'], maxItems: 32 });
  });

  it('keeps CRD defaults, enums and descriptions', () => {
    const out = toStructuralSchema(z.object({ mode: z.enum(['a', 'b']).default('a').describe('the mode') }));
    expect(out).toEqual({ type: 'object', properties: { mode: { type: 'string', enum: ['a', 'b'], default: 'a', description: 'the mode' } } });
  });

  it('lists crdRequired fields as required and drops parse-only defaults and omitted enums', () => {
    const out = toStructuralSchema(
      z.object({
        count: crdRequired(z.int().default(0)),
        message: crdRequired(parseOnlyDefault(z.string().default(''))),
        state: crdRequired(crdOmit(z.enum(['', 'on']).default(''), ['default', 'enum'])),
        mode: parseOnlyDefault(z.enum(['x', 'y']).default('x')),
        nested: crdRequired(parseOnlyDefault(z.object({ id: crdRequired(parseOnlyDefault(z.string().default(''))) }).prefault({}))),
      }),
    );
    expect(out).toEqual({
      type: 'object',
      properties: {
        count: { type: 'integer', default: 0 },
        message: { type: 'string' },
        state: { type: 'string' },
        mode: { type: 'string', enum: ['x', 'y'] },
        nested: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      },
      required: ['count', 'message', 'nested', 'state'],
    });
  });

  it('writes patterns the way Go spells them', () => {
    expect(toStructuralSchema(z.string().regex(/^a\/b\\\/c$/)).pattern).toBe('^a/b\\\\/c$');
  });

  it('rejects patterns RE2 cannot compile', () => {
    expect(() => toStructuralSchema(z.string().regex(/^(?!admin).*$/))).toThrow(/lookahead/);
    expect(() => toStructuralSchema(z.string().regex(/^(a)\1$/))).toThrow(/backreference/);
  });

  it('rejects what a structural schema cannot hold', () => {
    expect(() => structuralize({ $ref: '#/definitions/x' })).toThrow(/\$ref/);
    expect(() => structuralize({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } })).toThrow(
      /mutually exclusive/,
    );
    expect(() => structuralize({ type: 'array', items: { type: 'string' }, uniqueItems: true })).toThrow(/uniqueItems/);
    expect(() => structuralize({ type: 'string', examples: ['x'] })).toThrow(/'examples' is not a CRD schema keyword/);
    expect(() => structuralize({ enum: ['a'] })).toThrow(/needs a type/);
    expect(() => toStructuralSchema(crdRequired(z.string()))).toThrow(/object property/);
  });
});
