import { deepEqual } from '../../operator/runtime/index.ts';
import type { FieldError } from '../../operator/runtime/index.ts';
import { metal3DataTemplateSchema } from '../api/index.ts';
import type { Metal3DataTemplate, StaticNetworkTemplate } from '../api/index.ts';
import type { ValidatingRules } from './review.ts';

const CLUSTER_NAME_WARNING = 'spec.clusterName is deprecated and will be removed in a future release. It is no longer used by the controllers.';

function hostInterfaceErrors(template: Metal3DataTemplate): FieldError[] {
  return (template.spec.metaData?.fromHostInterfaces ?? []).flatMap((entry, index): FieldError[] => {
    const field = `spec.metaData.fromHostInterfaces[${index}].interface`;
    if (entry.fromBootMAC && entry.interface) return [{ type: 'Invalid', field, value: entry.interface, detail: 'must be empty when fromBootMAC is true' }];
    if (!entry.fromBootMAC && !entry.interface) return [{ type: 'Required', field, detail: 'name a NIC of the host, or set fromBootMAC' }];
    return [];
  });
}

function poolErrors(networks: readonly StaticNetworkTemplate[] | undefined, family: 'ipv4' | 'ipv6'): FieldError[] {
  return (networks ?? []).flatMap((network, index): FieldError[] => {
    if (network.fromPoolRef?.name || network.ipAddressFromIPPool || network.fromPoolAnnotation?.object) return [];
    return [{ type: 'Required', field: `spec.networkData.networks.${family}[${index}].fromPoolRef.name`,
      detail: 'a static network needs its pool: fromPoolRef, ipAddressFromIPPool or fromPoolAnnotation' }];
  });
}

/**
 * CAPM3's Metal3DataTemplate rules: on create, host interfaces and static networks must say where
 * their values come from; afterwards metaData and networkData never change (data already rendered
 * from them would disagree). A clusterName gets a deprecation warning.
 */
export const metal3DataTemplateRules: ValidatingRules<Metal3DataTemplate> = {
  kind: 'Metal3DataTemplate',
  schema: metal3DataTemplateSchema,
  validate: (template, old) => {
    const warnings = template.spec.clusterName ? [CLUSTER_NAME_WARNING] : [];
    if (old === undefined) {
      const networks = template.spec.networkData?.networks;
      return { errors: [...hostInterfaceErrors(template), ...poolErrors(networks?.ipv4, 'ipv4'), ...poolErrors(networks?.ipv6, 'ipv6')], warnings };
    }
    const errors: FieldError[] = [];
    for (const name of ['metaData', 'networkData'] as const) {
      if (!deepEqual(template.spec[name], old.spec[name])) errors.push({ type: 'Invalid', field: `spec.${name}`, value: template.spec[name] ?? null, detail: 'cannot be modified' });
    }
    return { errors, warnings };
  },
};
