import type { MetaDataTemplate } from '../api/index.ts';
import type { RenderSources } from './render-sources.ts';
import { DataRenderError, annotationOf, hostInterfaceMac, labelOf, objectNameOf, poolAddress } from './render-sources.ts';

/**
 * CAPM3's renderMetaData: a flat string map for the config drive's meta_data.json. Later
 * sources override earlier ones in CAPM3's order (host interfaces, pools, indexes, namespaces,
 * object names, labels, annotations, strings); `providerid` is always `<ns>/<host>/<m3m>`.
 */
export function renderMetaData(template: MetaDataTemplate, sources: RenderSources): Record<string, string> {
  const metaData: Record<string, string> = {};
  for (const entry of template.fromHostInterfaces ?? []) {
    if (entry.fromBootMAC) {
      const mac = sources.host.spec.bootMACAddress;
      if (!mac) throw new DataRenderError(`metaData key '${entry.key}': BareMetalHost ${sources.host.metadata.name} has no spec.bootMACAddress`);
      metaData[entry.key] = mac;
    } else {
      metaData[entry.key] = hostInterfaceMac(sources.host, entry.interface ?? '');
    }
  }
  for (const entry of template.ipAddressesFromPool ?? []) {
    metaData[entry.key] = poolAddress(sources.addresses, entry.name, `metaData key '${entry.key}'`).address;
  }
  for (const entry of template.prefixesFromPool ?? []) {
    const prefix = poolAddress(sources.addresses, entry.name, `metaData key '${entry.key}'`).prefix;
    metaData[entry.key] = prefix === undefined ? '' : String(prefix);
  }
  for (const entry of template.gatewaysFromPool ?? []) {
    metaData[entry.key] = poolAddress(sources.addresses, entry.name, `metaData key '${entry.key}'`).gateway ?? '';
  }
  for (const entry of template.dnsServersFromPool ?? []) {
    metaData[entry.key] = (poolAddress(sources.addresses, entry.name, `metaData key '${entry.key}'`).dnsServers ?? []).join(',');
  }
  for (const entry of template.indexes ?? []) {
    const step = entry.step || 1;
    metaData[entry.key] = `${entry.prefix ?? ''}${(entry.offset ?? 0) + sources.index * step}${entry.suffix ?? ''}`;
  }
  for (const entry of template.namespaces ?? []) metaData[entry.key] = sources.namespace;
  for (const entry of template.objectNames ?? []) metaData[entry.key] = objectNameOf(sources, entry.object);
  for (const entry of template.fromLabels ?? []) metaData[entry.key] = labelOf(sources, entry.object, entry.label);
  for (const entry of template.fromAnnotations ?? []) metaData[entry.key] = annotationOf(sources, entry.object, entry.annotation);
  for (const entry of template.strings ?? []) metaData[entry.key] = entry.value;
  metaData.providerid = `${sources.m3m.metadata.namespace}/${sources.host.metadata.name}/${sources.m3m.metadata.name}`;
  return metaData;
}
