import type { ResourceType } from './kube-object.ts';

/** Built-in kinds the runtime itself reads or writes, and the ones controllers commonly watch. */
export const LeaseResource: ResourceType = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  plural: 'leases',
  namespaced: true,
};

export const EventResource: ResourceType = {
  group: 'events.k8s.io',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  namespaced: true,
};

export const SecretResource: ResourceType = { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true };

export const ConfigMapResource: ResourceType = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  namespaced: true,
};

export const NamespaceResource: ResourceType = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  namespaced: false,
};

export const CustomResourceDefinitionResource: ResourceType = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  namespaced: false,
};
