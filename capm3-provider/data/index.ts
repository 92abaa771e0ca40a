/** Metal3DataTemplate rendering: claim indexes, the pools a template needs, meta data and network data. Pure. */
export * from './indexes.ts';
export * from './netmask.ts';
export * from './referenced-pools.ts';
export * from './render-meta-data.ts';
export * from './render-network-data.ts';
export * from './render-sources.ts';
