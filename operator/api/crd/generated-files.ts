import { bareMetalHostCrdSource } from './baremetalhost-crd.ts';
import { bareMetalSwitchCrdSource } from './baremetalswitch-crd.ts';
import { bmcEventSubscriptionCrdSource } from './bmceventsubscription-crd.ts';
import { buildCustomResourceDefinition, type CrdSource } from './custom-resource-definition.ts';
import { dataImageCrdSource } from './dataimage-crd.ts';
import { firmwareSchemaCrdSource, hostFirmwareComponentsCrdSource, hostFirmwareSettingsCrdSource, hostUpdatePolicyCrdSource } from './firmware-crds.ts';
import { hardwareDataCrdSource } from './hardwaredata-crd.ts';
import { hostClaimCrdSource, hostDeployPolicyCrdSource } from './hostclaim-crds.ts';
import { hostNetworkAttachmentCrdSource } from './hostnetworkattachment-crd.ts';
import { preprovisioningImageCrdSource } from './preprovisioningimage-crd.ts';
import { renderYaml } from './render-yaml.ts';

import type { GeneratedFile } from './sync-files.ts';

export type { GeneratedFile };

export const CRD_DIRECTORY = 'deploy/crds';
export const CRD_SOURCES: readonly CrdSource[] = [
  bareMetalHostCrdSource, hardwareDataCrdSource, hostFirmwareSettingsCrdSource, firmwareSchemaCrdSource, hostFirmwareComponentsCrdSource, dataImageCrdSource,
  hostUpdatePolicyCrdSource, bmcEventSubscriptionCrdSource, preprovisioningImageCrdSource, hostClaimCrdSource, hostDeployPolicyCrdSource,
  bareMetalSwitchCrdSource, hostNetworkAttachmentCrdSource,
];

export function crdFileName(source: CrdSource): string {
  return `${source.group}_${source.plural}.yaml`;
}

/** The CRD YAML plus a kustomization listing them, exactly as committed. */
export function generatedFiles(): GeneratedFile[] {
  const crds = CRD_SOURCES.map((source) => ({
    path: `${CRD_DIRECTORY}/${crdFileName(source)}`,
    content: renderYaml(buildCustomResourceDefinition(source)),
  }));
  const kustomization = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: CRD_SOURCES.map(crdFileName),
  };
  return [...crds, { path: `${CRD_DIRECTORY}/kustomization.yaml`, content: renderYaml(kustomization) }];
}
