import type { z } from 'zod';
import type { StructuralSchema } from './json-schema.ts';
import type { PrinterColumn } from './printer-column.ts';
import { toStructuralSchema } from './structural-schema.ts';

/** Everything that makes one single-version CRD; the schemas are the zod sources. */
export interface CrdSource {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  shortNames?: string[];
  /** e.g. `cluster-api`, so `kubectl get cluster-api` lists the kind. */
  categories?: string[];
  /** CRD labels, e.g. Cluster API's `cluster.x-k8s.io/v1beta2` contract label. */
  labels?: Record<string, string>;
  scope: 'Namespaced' | 'Cluster';
  description: string;
  spec: z.ZodType;
  specDescription: string;
  /** Also turns on the status subresource, unless `statusSubresource` is false. */
  status?: z.ZodType;
  statusDescription?: string;
  /** False for a kind with a status field but no status subresource (BMO's HostUpdatePolicy). */
  statusSubresource?: boolean;
  printerColumns: PrinterColumn[];
}

export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    group: string;
    names: { kind: string; listKind: string; plural: string; singular: string; shortNames?: string[]; categories?: string[] };
    scope: 'Namespaced' | 'Cluster';
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      schema: { openAPIV3Schema: StructuralSchema };
      subresources?: { status: Record<string, never> };
      additionalPrinterColumns: PrinterColumn[];
    }[];
  };
}

export function buildCustomResourceDefinition(source: CrdSource): CustomResourceDefinition {
  const properties: Record<string, StructuralSchema> = {
    apiVersion: { type: 'string', description: `Versioned schema of this object, e.g. ${source.group}/${source.version}.` },
    kind: { type: 'string', description: 'REST resource this object represents.' },
    metadata: { type: 'object' },
    spec: { ...toStructuralSchema(source.spec), description: source.specDescription },
  };
  if (source.status) {
    properties.status = { ...toStructuralSchema(source.status), description: source.statusDescription ?? 'Observed state.' };
  }
  const names = {
    kind: source.kind,
    listKind: source.listKind,
    plural: source.plural,
    singular: source.singular,
    ...(source.shortNames ? { shortNames: source.shortNames } : {}),
    ...(source.categories ? { categories: source.categories } : {}),
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${source.plural}.${source.group}`, ...(source.labels ? { labels: source.labels } : {}) },
    spec: {
      group: source.group,
      names,
      scope: source.scope,
      versions: [
        {
          name: source.version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', description: source.description, properties } },
          ...(source.status && source.statusSubresource !== false ? { subresources: { status: {} } } : {}),
          additionalPrinterColumns: source.printerColumns,
        },
      ],
    },
  };
}
