import { z } from 'zod';
import { objectMetaSchema } from '../../operator/api/index.ts';
import type { ResourceType } from '../../operator/runtime/index.ts';
import { rfc3339 } from './common.ts';
import { INFRASTRUCTURE_GROUP, INFRASTRUCTURE_VERSION } from './group-version.ts';

export const Metal3DataTemplateResource = {
  group: INFRASTRUCTURE_GROUP,
  version: INFRASTRUCTURE_VERSION,
  kind: 'Metal3DataTemplate',
  plural: 'metal3datatemplates',
  namespaced: true,
} as const satisfies ResourceType;

/** Objects whose names, labels and annotations a template may read. */
export const DATA_SOURCE_OBJECTS = ['machine', 'metal3machine', 'baremetalhost'] as const;
export const ETHERNET_LINK_TYPES = ['bridge', 'dvs', 'hw_veb', 'hyperv', 'ovs', 'tap', 'vhostuser', 'vif', 'phy'] as const;

const IPV4 = '(([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])\\.){3}([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])';
const IPV6 = '([0-9a-fA-F]{1,4}:){7,7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}'
  + '|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}'
  + '|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}'
  + '|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:)';
const DNS_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/**
 * The API version whose admission rules a schema carries. The rules are CAPM3's CRD checks, put
 * on the CRD (as JSON Schema) only: parsing a stored object stays tolerant, since an object
 * written through the looser v1beta1 is stored as v1beta2 without v1beta2's checks.
 */
type Admission = 'v1beta1' | 'v1beta2';

/** Builders that add CAPM3's CRD rules of one API version to plain zod types. */
function admissionRules(version: Admission) {
  const v1beta2 = version === 'v1beta2';
  const limits = (rules: Record<string, unknown>) => (v1beta2 ? rules : {});
  return {
    /** A string: in v1beta2 non-empty and at most `max` long. */
    text: (max = 512) => z.string().meta(limits({ minLength: 1, maxLength: max })),
    /** A list: in v1beta2 non-empty, bounded, and a map by `keys` (no two items with the same) or a set. */
    list: <T extends z.ZodType>(item: T, options: { keys?: string[]; set?: boolean; max?: number } = {}) =>
      z.array(item).meta(limits({
        minItems: 1, maxItems: options.max ?? 512,
        ...(options.keys ? { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': options.keys } : {}),
        ...(options.set ? { 'x-kubernetes-list-type': 'set' } : {}),
      })),
    /** An address of one family, checked by CAPM3's pattern (both versions). */
    address: (family: 'ipv4' | 'ipv6' | 'any') => z.string().meta({
      pattern: family === 'ipv4' ? `^(${IPV4})$` : family === 'ipv6' ? `^(${IPV6})$` : `((^(${IPV4})$)|(^(${IPV6})$))`,
    }),
    /** The object a value is read from: CAPM3's three names, in both versions. */
    sourceObject: () => z.string().meta({ enum: [...DATA_SOURCE_OBJECTS] }).describe('machine, metal3machine or baremetalhost.'),
    /** A Linux interface name, as both versions check it. */
    interfaceName: () => z.string().meta({ pattern: '^[a-zA-Z][a-zA-Z0-9._-]*$', maxLength: 15, ...limits({ minLength: 1 }) }).describe('Interface name.'),
    /** The link MTU: 1500 when unset (both versions), at least 1280 in v1beta2. */
    mtu: () => z.int().max(9000).optional().meta({ format: 'int32', default: 1500, ...limits({ minimum: 1280 }) }).describe('MTU of the link; 1500 when unset.'),
    /** A pool's group and kind, defaulted in v1beta2 to Metal3's IPPool. */
    poolGroup: (pattern: boolean) => z.string().optional()
      .meta(limits({ default: 'ipam.metal3.io', minLength: 1, maxLength: pattern ? 253 : 512, ...(pattern ? { pattern: DNS_SUBDOMAIN } : {}) })),
    poolKind: (pattern: boolean) => z.string().optional()
      .meta(limits({ default: 'IPPool', minLength: 1, maxLength: pattern ? 63 : 512, ...(pattern ? { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$' } : {}) })),
    limits,
  };
}

/** The template's schemas with the admission rules of `version` (see Admission). */
export function dataTemplateSchemas(version: Admission) {
  const rule = admissionRules(version);
  const { text, list } = rule;
  const key = text().describe('Key in the rendered meta data.');
  const poolName = text().describe('Name of the pool.');

  /** A pool an address comes from: a Metal3 IPPool by default, or any Cluster API IPAM pool by apiGroup and kind. */
  const fromPoolSchema = z.object({
    key,
    name: poolName,
    apiGroup: rule.poolGroup(false).describe('API group of the pool; ipam.metal3.io when unset.'),
    kind: rule.poolKind(false).describe('Kind of the pool; IPPool when unset.'),
  });
  const ipPoolReferenceSchema = z.object({
    name: z.string().meta(rule.limits({ minLength: 1, maxLength: 253, pattern: DNS_SUBDOMAIN })).describe('Name of the pool.'),
    apiGroup: rule.poolGroup(true).describe('API group of the pool; ipam.metal3.io when unset.'),
    kind: rule.poolKind(true).describe('Kind of the pool; IPPool when unset.'),
  });
  const fromPoolAnnotationSchema = z.object({
    object: rule.sourceObject(),
    annotation: text().describe('Annotation whose value names the pool.'),
  });

  const metaDataSchema = z.object({
    strings: list(z.object({ key, value: text().describe('The value.') }), { keys: ['key'] }).optional().describe('Fixed strings.'),
    objectNames: list(z.object({ key, object: rule.sourceObject() }), { keys: ['key'] }).optional().describe('Names of the machine, Metal3Machine or host.'),
    indexes: list(z.object({
      key,
      offset: z.int().optional().meta({ format: 'int32', ...rule.limits({ minimum: 0 }) }).describe('Added to index*step; 0 when unset.'),
      step: z.int().optional().meta({ format: 'int32', default: 1, ...rule.limits({ minimum: 1 }) }).describe('Multiplies the index; 1 when unset.'),
      prefix: text().optional().describe('Put before the number.'),
      suffix: text().optional().describe('Put after the number.'),
    }), { keys: ['key'] }).optional().describe('The claim index, as prefix + (offset + index*step) + suffix.'),
    namespaces: list(z.object({ key }), { keys: ['key'] }).optional().describe('The namespace of the Metal3Data.'),
    ipAddressesFromPool: list(fromPoolSchema, { keys: ['key'] }).optional().describe('The address allocated from a pool.'),
    prefixesFromPool: list(fromPoolSchema, { keys: ['key'] }).optional().describe('The prefix length of the address allocated from a pool.'),
    gatewaysFromPool: list(fromPoolSchema, { keys: ['key'] }).optional().describe('The gateway of the address allocated from a pool.'),
    dnsServersFromPool: list(fromPoolSchema, { keys: ['key'] }).optional().describe('The DNS servers of the address allocated from a pool, comma-separated.'),
    fromHostInterfaces: list(z.object({
      key,
      interface: text().optional().describe('Name of a NIC in the host\'s hardware details; its MAC is rendered.'),
      fromBootMAC: z.boolean().optional().describe('Render the host\'s spec.bootMACAddress instead.'),
    }), { keys: ['key'] }).optional().describe('MAC addresses of the host.'),
    fromLabels: list(z.object({ key, object: rule.sourceObject(), label: text().describe('Label key.') }), { keys: ['key'] }).optional()
      .describe('Label values of the machine, Metal3Machine or host (empty when absent).'),
    fromAnnotations: list(z.object({ key, object: rule.sourceObject(), annotation: text().describe('Annotation key.') }), { keys: ['key'] }).optional()
      .describe('Annotation values of the machine, Metal3Machine or host (empty when absent).'),
  });

  const linkMacSchema = z.object({
    string: text().optional().describe('A literal MAC address.'),
    fromHostInterface: text().optional().describe('Name of a host NIC whose MAC is used.'),
    fromAnnotation: fromPoolAnnotationSchema.optional().describe('An annotation holding the MAC address.'),
  }).describe('Where the MAC address of the link comes from.');
  const linkId = text().describe('ID of the link, referenced by networks, bonds and VLANs.');

  const networkLinksSchema = z.object({
    ethernets: list(z.object({
      type: z.enum(ETHERNET_LINK_TYPES).describe('OpenStack link type; phy for a physical NIC.'),
      id: linkId,
      name: rule.interfaceName().optional(),
      mtu: rule.mtu(),
      macAddress: linkMacSchema.optional(),
    }), { keys: ['id'], max: 32 }).optional().describe('Ethernet links.'),
    bonds: list(z.object({
      bondMode: z.enum(['balance-rr', 'active-backup', 'balance-xor', 'broadcast', '802.3ad', 'balance-tlb', 'balance-alb'])
        .describe('Bonding mode.'),
      bondXmitHashPolicy: z.enum(['layer2', 'layer3+4', 'layer2+3']).optional().describe('Transmit hash policy.'),
      id: linkId,
      name: rule.interfaceName().optional(),
      mtu: rule.mtu(),
      macAddress: linkMacSchema.optional(),
      parameters: list(z.object({
        name: text().describe('Parameter name, rendered as bond_<name>.'),
        value: z.unknown().optional().describe('Any JSON value.'),
      }), { keys: ['name'] }).optional().describe('Further bond parameters; may not override the structured ones.'),
      bondLinks: z.array(text()).meta(rule.limits({ maxItems: 512, 'x-kubernetes-list-type': 'set' })).optional().describe('IDs of the links bonded.'),
    }), { keys: ['id'] }).optional().describe('Bonds.'),
    vlans: list(z.object({
      vlanID: z.int().meta({ format: 'int32', maximum: 4096, ...rule.limits({ minimum: 0 }) }).describe('VLAN ID.'),
      id: linkId,
      name: rule.interfaceName().optional(),
      mtu: rule.mtu(),
      macAddress: linkMacSchema.optional(),
      vlanLink: text().describe('ID of the link the VLAN sits on.'),
    }), { keys: ['vlanID'] }).optional().describe('VLANs.'),
  });

  const dnsServices = (family: 'ipv4' | 'ipv6' | 'any') => z.object({
    dns: list(rule.address(family), { set: true }).optional().describe('DNS server addresses.'),
    dnsFromIPPool: text().optional().describe('Use the DNS servers of the address allocated from this IPPool.'),
  });
  const gatewaySchema = (family: 'ipv4' | 'ipv6') => z.object({
    string: rule.address(family).optional().describe('A literal gateway address.'),
    fromIPPool: text().optional().describe('The gateway of the address allocated from this IPPool.'),
    fromPoolRef: ipPoolReferenceSchema.optional().describe('The gateway of the address allocated from this pool.'),
    fromPoolAnnotation: fromPoolAnnotationSchema.optional().describe('The gateway of the pool named by an annotation.'),
  });
  const routeSchema = (family: 'ipv4' | 'ipv6') => z.object({
    network: rule.address(family).describe('Destination network address.'),
    prefix: z.int().optional().meta({ format: 'int32', maximum: family === 'ipv4' ? 32 : 128, ...rule.limits({ minimum: 0 }) }).describe('Destination prefix length.'),
    gateway: gatewaySchema(family).optional().describe('Next hop.'),
    services: dnsServices(family).optional().describe('DNS servers reachable through the route.'),
  });
  const routes = (family: 'ipv4' | 'ipv6') => list(routeSchema(family), { keys: ['network'] }).optional().describe('Routes.');
  const networkId = text().describe('ID of the network.');
  const link = text().describe('ID of the link the network is on.');
  const staticNetworkSchema = (family: 'ipv4' | 'ipv6') => z.object({
    id: networkId,
    link,
    ipAddressFromIPPool: text().optional().describe('Name of the Metal3 IPPool the address comes from.'),
    fromPoolRef: ipPoolReferenceSchema.optional().describe('Pool the address comes from (Metal3 or Cluster API IPAM).'),
    fromPoolAnnotation: fromPoolAnnotationSchema.optional().describe('An annotation naming the IPPool the address comes from.'),
    routes: routes(family),
  });
  const dhcpNetwork = (family: 'ipv4' | 'ipv6') => z.object({ id: networkId, link, routes: routes(family) });

  const networkDataSchema = z.object({
    links: networkLinksSchema.optional().describe('Ethernet links, bonds and VLANs.'),
    networks: z.object({
      ipv4: list(staticNetworkSchema('ipv4'), { keys: ['id'] }).optional().describe('Static IPv4 networks.'),
      ipv6: list(staticNetworkSchema('ipv6'), { keys: ['id'] }).optional().describe('Static IPv6 networks.'),
      ipv4DHCP: list(dhcpNetwork('ipv4'), { keys: ['id'] }).optional().describe('IPv4 networks configured by DHCP.'),
      ipv6DHCP: list(dhcpNetwork('ipv6'), { keys: ['id'] }).optional().describe('IPv6 networks configured by DHCPv6.'),
      ipv6SLAAC: list(dhcpNetwork('ipv6'), { keys: ['id'] }).optional().describe('IPv6 networks configured by SLAAC.'),
    }).optional().describe('Networks on the links.'),
    services: dnsServices('any').optional().describe('Global services (DNS servers).'),
  });
  return { fromPoolSchema, ipPoolReferenceSchema, fromPoolAnnotationSchema, metaDataSchema, linkMacSchema, networkLinksSchema,
    routeSchema: routeSchema('ipv4'), gatewaySchema: gatewaySchema('ipv4'), staticNetworkSchema: staticNetworkSchema('ipv4'), networkDataSchema };
}

const v1beta2Schemas = dataTemplateSchemas('v1beta2');
export const { fromPoolSchema, ipPoolReferenceSchema, fromPoolAnnotationSchema, metaDataSchema, linkMacSchema, networkLinksSchema,
  routeSchema, gatewaySchema, staticNetworkSchema, networkDataSchema } = v1beta2Schemas;
export type IPPoolReference = z.infer<typeof ipPoolReferenceSchema>;
export type MetaDataTemplate = z.infer<typeof metaDataSchema>;
export type LinkMac = z.infer<typeof linkMacSchema>;
export type RouteTemplate = z.infer<typeof routeSchema>;
export type StaticNetworkTemplate = z.infer<typeof staticNetworkSchema>;
export type NetworkDataTemplate = z.infer<typeof networkDataSchema>;

export const metal3DataTemplateSpecSchema = z.object({
  clusterName: z.string().meta({ maxLength: 512 }).optional().describe('Deprecated: the Cluster the template belongs to.'),
  metaData: metaDataSchema.optional().describe('What the rendered meta data (`<metal3machine>-metadata` Secret) holds.'),
  networkData: networkDataSchema.optional()
    .describe('What the rendered network data (`<metal3machine>-networkdata` Secret, OpenStack network_data.json) holds.'),
});
export type Metal3DataTemplateSpec = z.infer<typeof metal3DataTemplateSpecSchema>;

export const indexEntrySchema = z.object({
  name: z.string().describe('Name of the Metal3DataClaim.'),
  index: z.int().meta({ format: 'int32' }).describe('Index given to it.'),
});
export type IndexEntry = z.infer<typeof indexEntrySchema>;

export const metal3DataTemplateStatusSchema = z.object({
  indexes: z.array(indexEntrySchema).optional().describe('Index of every claim holding a Metal3Data, lowest first.'),
  lastUpdated: rfc3339().optional().describe('When the status was last written.'),
});

export const metal3DataTemplateSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: metal3DataTemplateSpecSchema.prefault({}),
  status: metal3DataTemplateStatusSchema.optional(),
});
export type Metal3DataTemplate = z.infer<typeof metal3DataTemplateSchema>;
