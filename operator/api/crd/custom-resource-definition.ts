import type { z } from 'zod';
import type { StructuralSchema } from './json-schema.ts';
import type { PrinterColumn } from './printer-column.ts';
import { toStructuralSchema } from './structural-schema.ts';

/** Everything that makes one CRD (its storage version and any older served ones); the schemas are the zod sources. */
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
  /** CRD annotations, e.g. clusterctl's `skip-crd-name-preflight-check`. */
  annotations?: Record<string, string>;
  scope: 'Namespaced' | 'Cluster';
  description: string;
  spec: z.ZodType;
  specDescription: string;
  /** Also turns on the status subresource, unless `statusSubresource` says otherwise. */
  status?: z.ZodType;
  statusDescription?: string;
  /**
   * The status subresource when it does not follow `status`: false for a status field without
   * one (BMO's HostUpdatePolicy), true for one without a status field (BMO's HostNetworkAttachment).
   */
  statusSubresource?: boolean;
  printerColumns: PrinterColumn[];
  /** Versions still served beside `version` (the storage version), converted by the conversion webhook. */
  olderVersions?: OlderVersionSource[];
}

/** A served, non-storage version: its own schemas and columns, marked deprecated as CAPM3 marks v1beta1. */
export interface OlderVersionSource {
  version: string;
  description: string;
  spec: z.ZodType;
  specDescription: string;
  status?: z.ZodType;
  statusDescription?: string;
  printerColumns: PrinterColumn[];
}

export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    group: string;
    names: { kind: string; listKind: string; plural: string; singular: string; shortNames?: string[]; categories?: string[] };
    scope: 'Namespaced' | 'Cluster';
    versions: {
      name: string;
      deprecated?: boolean;
      served: boolean;
      storage: boolean;
      schema: { openAPIV3Schema: StructuralSchema };
      subresources?: { status: Record<string, never> };
      additionalPrinterColumns: PrinterColumn[];
    }[];
  };
}

function versionSchema(source: Pick<CrdSource, 'group'>, fields: OlderVersionSource): StructuralSchema {
  const properties: Record<string, StructuralSchema> = {
    apiVersion: { type: 'string', description: `Versioned schema of this object, e.g. ${source.group}/${fields.version}.` },
    kind: { type: 'string', description: 'REST resource this object represents.' },
    metadata: { type: 'object' },
    spec: { ...toStructuralSchema(fields.spec), description: fields.specDescription },
  };
  if (fields.status) {
    properties.status = { ...toStructuralSchema(fields.status), description: fields.statusDescription ?? 'Observed state.' };
  }
  return { type: 'object', description: fields.description, properties };
}

export function buildCustomResourceDefinition(source: CrdSource): CustomResourceDefinition {
  const names = {
    kind: source.kind,
    listKind: source.listKind,
    plural: source.plural,
    singular: source.singular,
    ...(source.shortNames ? { shortNames: source.shortNames } : {}),
    ...(source.categories ? { categories: source.categories } : {}),
  };
  const hasStatusSubresource = (status: z.ZodType | undefined) => source.statusSubresource ?? status !== undefined;
  const older = (source.olderVersions ?? []).map((version) => ({
    name: version.version,
    deprecated: true,
    served: true,
    storage: false,
    schema: { openAPIV3Schema: versionSchema(source, version) },
    ...(hasStatusSubresource(version.status) ? { subresources: { status: {} as Record<string, never> } } : {}),
    additionalPrinterColumns: version.printerColumns,
  }));
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${source.plural}.${source.group}`,
      ...(source.labels ? { labels: source.labels } : {}),
      ...(source.annotations ? { annotations: source.annotations } : {}),
    },
    spec: {
      group: source.group,
      names,
      scope: source.scope,
      versions: [
        ...older,
        {
          name: source.version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: versionSchema(source, source) },
          ...(hasStatusSubresource(source.status) ? { subresources: { status: {} } } : {}),
          additionalPrinterColumns: source.printerColumns,
        },
      ],
    },
  };
}
