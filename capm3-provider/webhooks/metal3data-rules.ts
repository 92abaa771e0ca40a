import type { FieldError } from '../../operator/runtime/index.ts';
import { metal3DataClaimSchema, metal3DataSchema } from '../api/index.ts';
import type { Metal3Data, Metal3DataClaim } from '../api/index.ts';
import type { ValidatingRules } from './review.ts';

type ObjectRef = { name?: string | undefined; namespace?: string | undefined } | undefined;

const sameRef = (a: ObjectRef, b: ObjectRef) => (a?.name ?? '') === (b?.name ?? '') && (a?.namespace ?? '') === (b?.namespace ?? '');

/** A Metal3Data is `<template>-<index>` and keeps its index, template and claim for life. */
export const metal3DataRules: ValidatingRules<Metal3Data> = {
  kind: 'Metal3Data',
  schema: metal3DataSchema,
  validate: (data, old) => {
    const { index, template, claim } = data.spec;
    if (old === undefined) {
      const expected = `${template?.name ?? ''}-${index ?? ''}`;
      const named = index === undefined || template?.name === undefined || data.metadata.name === expected;
      return { errors: named ? [] : [{ type: 'Invalid', field: 'metadata.name', value: data.metadata.name, detail: `should follow the convention <Metal3DataTemplate name>-<index> (${expected})` }] };
    }
    const errors: FieldError[] = [];
    if ((index ?? 0) !== (old.spec.index ?? 0)) errors.push({ type: 'Invalid', field: 'spec.index', value: index ?? null, detail: 'cannot be modified' });
    if (!sameRef(template, old.spec.template)) errors.push({ type: 'Invalid', field: 'spec.template', value: template ?? null, detail: 'cannot be modified' });
    if (!sameRef(claim, old.spec.claim)) errors.push({ type: 'Invalid', field: 'spec.claim', value: claim ?? null, detail: 'cannot be modified' });
    return { errors };
  },
};

const CROSS_NAMESPACE = 'must be empty or match the Metal3DataClaim namespace; cross-namespace template references are not allowed';

/** A Metal3DataClaim names a template in its own namespace, and never another one. */
export const metal3DataClaimRules: ValidatingRules<Metal3DataClaim> = {
  kind: 'Metal3DataClaim',
  schema: metal3DataClaimSchema,
  validate: (claim, old) => {
    const { template } = claim.spec;
    const errors: FieldError[] = [];
    if (old === undefined && !template.name) errors.push({ type: 'Invalid', field: 'spec.template.name', value: '', detail: 'must be set' });
    if (old !== undefined && !sameRef(template, old.spec.template)) errors.push({ type: 'Invalid', field: 'spec.template', value: template, detail: 'cannot be modified' });
    if (template.namespace && template.namespace !== claim.metadata.namespace) {
      errors.push({ type: 'Invalid', field: 'spec.template.namespace', value: template.namespace, detail: CROSS_NAMESPACE });
    }
    return { errors };
  },
};
