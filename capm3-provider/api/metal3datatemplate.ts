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
const sourceObject = z.string().min(1).describe('machine, metal3machine or baremetalhost (case-insensitive).');
const key = z.string().min(1).describe('Key in the rendered meta data.');
const poolName = z.string().min(1).max(253);

/** A pool an address comes from: a Metal3 IPPool by default, or any Cluster API IPAM pool by apiGroup and kind. */
export const fromPoolSchema = z.object({
  key,
  name: poolName.describe('Name of the pool.'),
  apiGroup: z.string().optional().describe('API group of the pool; ipam.metal3.io when unset.'),
  kind: z.string().optional().describe('Kind of the pool; IPPool when unset.'),
});
export const ipPoolReferenceSchema = z.object({
  name: poolName.describe('Name of the pool.'),
  apiGroup: z.string().optional().describe('API group of the pool; ipam.metal3.io when unset.'),
  kind: z.string().optional().describe('Kind of the pool; IPPool when unset.'),
});
export type IPPoolReference = z.infer<typeof ipPoolReferenceSchema>;
export const fromPoolAnnotationSchema = z.object({
  object: sourceObject,
  annotation: z.string().min(1).describe('Annotation whose value names the pool.'),
});

export const metaDataSchema = z.object({
  strings: z.array(z.object({ key, value: z.string().describe('The value.') })).optional().describe('Fixed strings.'),
  objectNames: z.array(z.object({ key, object: sourceObject })).optional().describe('Names of the machine, Metal3Machine or host.'),
  indexes: z.array(z.object({
    key,
    offset: z.int().optional().meta({ format: 'int32' }).describe('Added to index*step; 0 when unset.'),
    step: z.int().optional().meta({ format: 'int32' }).describe('Multiplies the index; 1 when unset or 0.'),
    prefix: z.string().optional().describe('Put before the number.'),
    suffix: z.string().optional().describe('Put after the number.'),
  })).optional().describe('The claim index, as prefix + (offset + index*step) + suffix.'),
  namespaces: z.array(z.object({ key })).optional().describe('The namespace of the Metal3Data.'),
  ipAddressesFromPool: z.array(fromPoolSchema).optional().describe('The address allocated from a pool.'),
  prefixesFromPool: z.array(fromPoolSchema).optional().describe('The prefix length of the address allocated from a pool.'),
  gatewaysFromPool: z.array(fromPoolSchema).optional().describe('The gateway of the address allocated from a pool.'),
  dnsServersFromPool: z.array(fromPoolSchema).optional().describe('The DNS servers of the address allocated from a pool, comma-separated.'),
  fromHostInterfaces: z.array(z.object({
    key,
    interface: z.string().optional().describe('Name of a NIC in the host\'s hardware details; its MAC is rendered.'),
    fromBootMAC: z.boolean().optional().describe('Render the host\'s spec.bootMACAddress instead.'),
  })).optional().describe('MAC addresses of the host.'),
  fromLabels: z.array(z.object({ key, object: sourceObject, label: z.string().min(1).describe('Label key.') })).optional()
    .describe('Label values of the machine, Metal3Machine or host (empty when absent).'),
  fromAnnotations: z.array(z.object({ key, object: sourceObject, annotation: z.string().min(1).describe('Annotation key.') })).optional()
    .describe('Annotation values of the machine, Metal3Machine or host (empty when absent).'),
});
export type MetaDataTemplate = z.infer<typeof metaDataSchema>;

export const linkMacSchema = z.object({
  string: z.string().optional().describe('A literal MAC address.'),
  fromHostInterface: z.string().optional().describe('Name of a host NIC whose MAC is used.'),
  fromAnnotation: fromPoolAnnotationSchema.optional().describe('An annotation holding the MAC address.'),
}).describe('Where the MAC address of the link comes from.');
export type LinkMac = z.infer<typeof linkMacSchema>;

const linkId = z.string().min(1).max(253).describe('ID of the link, referenced by networks, bonds and VLANs.');
const mtu = z.int().min(1).max(9000).optional().meta({ format: 'int32' }).describe('MTU of the link; 1500 when unset.');
export const ETHERNET_LINK_TYPES = ['bridge', 'dvs', 'hw_veb', 'hyperv', 'ovs', 'tap', 'vhostuser', 'vif', 'phy'] as const;

export const networkLinksSchema = z.object({
  ethernets: z.array(z.object({
    type: z.enum(ETHERNET_LINK_TYPES).describe('OpenStack link type; phy for a physical NIC.'),
    id: linkId,
    name: z.string().optional().describe('Interface name.'),
    mtu,
    macAddress: linkMacSchema.optional(),
  })).optional().describe('Ethernet links.'),
  bonds: z.array(z.object({
    bondMode: z.enum(['balance-rr', 'active-backup', 'balance-xor', 'broadcast', '802.3ad', 'balance-tlb', 'balance-alb'])
      .describe('Bonding mode.'),
    bondXmitHashPolicy: z.enum(['layer2', 'layer3+4', 'layer2+3']).optional().describe('Transmit hash policy.'),
    id: linkId,
    name: z.string().optional().describe('Interface name.'),
    mtu,
    macAddress: linkMacSchema.optional(),
    parameters: z.array(z.object({
      name: z.string().min(1).describe('Parameter name, rendered as bond_<name>.'),
      value: z.unknown().optional().describe('Any JSON value.'),
    })).optional().describe('Further bond parameters; may not override the structured ones.'),
    bondLinks: z.array(z.string()).optional().describe('IDs of the links bonded.'),
  })).optional().describe('Bonds.'),
  vlans: z.array(z.object({
    vlanID: z.int().min(0).max(4096).meta({ format: 'int32' }).describe('VLAN ID.'),
    id: linkId,
    name: z.string().optional().describe('Interface name.'),
    mtu,
    macAddress: linkMacSchema.optional(),
    vlanLink: z.string().min(1).describe('ID of the link the VLAN sits on.'),
  })).optional().describe('VLANs.'),
});

const dnsServices = z.object({
  dns: z.array(z.string()).optional().describe('DNS server addresses.'),
  dnsFromIPPool: z.string().optional().describe('Use the DNS servers of the address allocated from this IPPool.'),
});
export const gatewaySchema = z.object({
  string: z.string().optional().describe('A literal gateway address.'),
  fromIPPool: z.string().optional().describe('The gateway of the address allocated from this IPPool.'),
  fromPoolRef: ipPoolReferenceSchema.optional().describe('The gateway of the address allocated from this pool.'),
  fromPoolAnnotation: fromPoolAnnotationSchema.optional().describe('The gateway of the pool named by an annotation.'),
});
export const routeSchema = z.object({
  network: z.string().describe('Destination network address.'),
  prefix: z.int().optional().meta({ format: 'int32' }).describe('Destination prefix length.'),
  gateway: gatewaySchema.optional().describe('Next hop.'),
  services: dnsServices.optional().describe('DNS servers reachable through the route.'),
});
export type RouteTemplate = z.infer<typeof routeSchema>;
const networkId = z.string().min(1).max(253).describe('ID of the network.');
const link = z.string().min(1).max(253).describe('ID of the link the network is on.');
export const staticNetworkSchema = z.object({
  id: networkId,
  link,
  ipAddressFromIPPool: z.string().optional().describe('Name of the Metal3 IPPool the address comes from.'),
  fromPoolRef: ipPoolReferenceSchema.optional().describe('Pool the address comes from (Metal3 or Cluster API IPAM).'),
  fromPoolAnnotation: fromPoolAnnotationSchema.optional().describe('An annotation naming the IPPool the address comes from.'),
  routes: z.array(routeSchema).optional().describe('Routes.'),
});
export type StaticNetworkTemplate = z.infer<typeof staticNetworkSchema>;
const dhcpNetwork = z.object({ id: networkId, link, routes: z.array(routeSchema).optional().describe('Routes.') });

export const networkDataSchema = z.object({
  links: networkLinksSchema.optional().describe('Ethernet links, bonds and VLANs.'),
  networks: z.object({
    ipv4: z.array(staticNetworkSchema).optional().describe('Static IPv4 networks.'),
    ipv6: z.array(staticNetworkSchema).optional().describe('Static IPv6 networks.'),
    ipv4DHCP: z.array(dhcpNetwork).optional().describe('IPv4 networks configured by DHCP.'),
    ipv6DHCP: z.array(dhcpNetwork).optional().describe('IPv6 networks configured by DHCPv6.'),
    ipv6SLAAC: z.array(dhcpNetwork).optional().describe('IPv6 networks configured by SLAAC.'),
  }).optional().describe('Networks on the links.'),
  services: dnsServices.optional().describe('Global services (DNS servers).'),
});
export type NetworkDataTemplate = z.infer<typeof networkDataSchema>;

export const metal3DataTemplateSpecSchema = z.object({
  clusterName: z.string().optional().describe('Deprecated: the Cluster the template belongs to.'),
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
