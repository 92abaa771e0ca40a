import { metal3MachineSchema, metal3MachineTemplateSchema } from '../api/index.ts';
import type { Metal3Machine, Metal3MachineTemplate } from '../api/index.ts';
import { machineImageErrors, machineSpecErrors } from './machine-spec-rules.ts';
import type { ValidatingRules } from './review.ts';

export const metal3MachineRules: ValidatingRules<Metal3Machine> = {
  kind: 'Metal3Machine',
  schema: metal3MachineSchema,
  validate: (machine) => ({ errors: machineSpecErrors(machine.spec, { namespace: machine.metadata.namespace, base: 'spec' }) }),
};

export const metal3MachineTemplateRules: ValidatingRules<Metal3MachineTemplate> = {
  kind: 'Metal3MachineTemplate',
  schema: metal3MachineTemplateSchema,
  validate: (template) => ({ errors: machineImageErrors(template.spec.template.spec, 'spec.template.spec') }),
};
