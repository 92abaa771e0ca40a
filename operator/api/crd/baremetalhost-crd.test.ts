import { describe, expect, it } from '@jest/globals';
import { ERROR_TYPES } from '../error-type.ts';
import { bareMetalHostCrdSource } from './baremetalhost-crd.ts';
import { buildCustomResourceDefinition } from './custom-resource-definition.ts';
import type { StructuralSchema } from './json-schema.ts';
import { schemaAt, walkSchema } from './walk-schema.ts';

const crd = buildCustomResourceDefinition(bareMetalHostCrdSource);
const version = crd.spec.versions[0]!;
const root = version.schema.openAPIV3Schema;
const at = (path: string): StructuralSchema => schemaAt(root, path);

describe('BareMetalHost CRD', () => {
  it('has BMO names, scope and a served, stored v1alpha1 with a status subresource', () => {
    expect(crd.metadata.name).toBe('baremetalhosts.metal3.io');
    expect(crd.spec.group).toBe('metal3.io');
    expect(crd.spec.names).toEqual({
      kind: 'BareMetalHost',
      listKind: 'BareMetalHostList',
      plural: 'baremetalhosts',
      singular: 'baremetalhost',
      shortNames: ['bmh', 'bmhost'],
    });
    expect(crd.spec.scope).toBe('Namespaced');
    expect(crd.spec.versions).toHaveLength(1);
    expect(version).toMatchObject({ name: 'v1alpha1', served: true, storage: true, subresources: { status: {} } });
  });

  it('prints NAME STATE CONSUMER ONLINE ERROR AGE by default and adds STATUS and BMC when wide', () => {
    const columns = version.additionalPrinterColumns.map(({ name, jsonPath, type, priority }) => [name, jsonPath, type, priority ?? 0]);
    expect(columns).toEqual([
      ['Status', '.status.operationalStatus', 'string', 1],
      ['State', '.status.provisioning.state', 'string', 0],
      ['Consumer', '.spec.consumerRef.name', 'string', 0],
      ['BMC', '.spec.bmc.address', 'string', 1],
      ['Online', '.spec.online', 'string', 0],
      ['Error', '.status.errorType', 'string', 0],
      ['Age', '.metadata.creationTimestamp', 'date', 0],
    ]);
  });

  it('requires what BMO requires', () => {
    expect(root.required).toBeUndefined();
    expect(at('.spec').required).toEqual(['online']);
    expect(at('.spec.bmc').required).toEqual(['address', 'credentialsName']);
    expect(at('.spec.image').required).toEqual(['url']);
    expect(at('.spec.customDeploy').required).toEqual(['method']);
    expect(at('.spec.raid.hardwareRAIDVolumes[]').required).toEqual(['level']);
    expect(at('.spec.taints[]').required).toEqual(['effect', 'key']);
    expect(at('.spec.networkInterfaces[].switchPort').required).toEqual(['portID', 'switchID']);
    expect(at('.status').required).toEqual([
      'errorCount', 'errorMessage', 'operationalStatus', 'poweredOn', 'provisioning', 'provisioningFailCount',
    ]);
    expect(at('.status.provisioning').required).toEqual(['ID', 'state']);
    expect(at('.status.conditions[]').required).toEqual(['lastTransitionTime', 'message', 'reason', 'status', 'type']);
  });

  it('defaults only what BMO defaults in its CRD', () => {
    const defaults: Record<string, unknown> = {};
    walkSchema(root, (node, path) => {
      if (node.default !== undefined) defaults[path] = node.default;
    });
    expect(defaults).toEqual({
      '.spec.automatedCleaningMode': 'metadata',
      '.spec.raid.softwareRAIDVolumes[].rootVolume': false,
      '.status.errorCount': 0,
      '.status.provisioningFailCount': 0,
      '.status.provisioning.raid.softwareRAIDVolumes[].rootVolume': false,
    });
  });

  it('constrains enums and limits', () => {
    expect(at('.spec.bootMode').enum).toEqual(['UEFI', 'UEFISecureBoot', 'legacy']);
    expect(at('.spec.automatedCleaningMode').enum).toEqual(['metadata', 'disabled']);
    expect(at('.spec.inspectionMode').enum).toEqual(['disabled', 'agent', 'fast']);
    expect(at('.spec.image.checksumType').enum).toEqual(['md5', 'sha256', 'sha512', 'auto']);
    expect(at('.spec.image.format').enum).toEqual(['raw', 'qcow2', 'vdi', 'vmdk', 'live-iso']);
    expect(at('.spec.raid.hardwareRAIDVolumes[].level').enum).toEqual(['0', '1', '2', '5', '6', '1+0', '5+0', '6+0']);
    expect(at('.spec.raid.softwareRAIDVolumes[].level').enum).toEqual(['0', '1', '1+0']);
    expect(at('.spec.raid.softwareRAIDVolumes')).toMatchObject({ maxItems: 2, nullable: true });
    expect(at('.spec.raid.softwareRAIDVolumes[].physicalDisks').minItems).toBe(2);
    expect(at('.spec.raid.hardwareRAIDVolumes[].name').maxLength).toBe(64);
    expect(at('.spec.bootMACAddress').pattern).toBe('[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}');
    expect(at('.status.operationalStatus').enum).toEqual(['', 'OK', 'discovered', 'error', 'delayed', 'detached', 'servicing']);
    expect(at('.status.hardware.storage[].type').enum).toEqual(['HDD', 'SSD', 'NVME']);
    expect(at('.status.hardware.nics[].vlanId')).toEqual(expect.objectContaining({ minimum: 0, maximum: 4094, format: 'int32' }));
  });

  it("accepts 'detach error', which BMO's Go code writes but its CRD enum lacks", () => {
    expect(at('.status.errorType').enum).toEqual([...ERROR_TYPES]);
    expect(at('.status.errorType').enum).toContain('detach error');
  });

  it('leaves the provisioning state an open string and boot mode undefaulted, like BMO', () => {
    expect(at('.status.provisioning.state')).toEqual({ type: 'string', description: expect.any(String) });
    expect(at('.spec.bootMode').default).toBeUndefined();
  });

  it('keys conditions by type for server-side apply and caps them at 32', () => {
    expect(at('.status.conditions')).toMatchObject({
      type: 'array',
      maxItems: 32,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
    });
  });

  it('marks Secret and object references atomic and Go null times nullable', () => {
    for (const path of ['.spec.userData', '.spec.networkData', '.spec.metaData', '.spec.consumerRef', '.status.goodCredentials.credentials']) {
      expect(at(path)['x-kubernetes-map-type']).toBe('atomic');
    }
    expect(at('.status.operationHistory.provision.start')).toMatchObject({ type: 'string', format: 'date-time', nullable: true });
  });

  it('is structural: every node typed, no properties beside additionalProperties, no leftover markers', () => {
    walkSchema(root, (node, path) => {
      const keys = Object.keys(node);
      expect({ path, typed: node.type !== undefined || node['x-kubernetes-int-or-string'] === true || node['x-kubernetes-preserve-unknown-fields'] === true }).toEqual({ path, typed: true });
      if (node.properties) expect({ path, additionalProperties: node.additionalProperties }).toEqual({ path, additionalProperties: undefined });
      expect(keys.filter((key) => key.startsWith('x-metal3'))).toEqual([]);
      expect(keys.filter((key) => ['anyOf', 'oneOf', 'allOf', 'not', '$ref'].includes(key))).toEqual([]);
    });
  });

  it('covers every BMO spec field', () => {
    expect(Object.keys(at('.spec').properties ?? {}).sort()).toEqual(
      [
        'architecture', 'automatedCleaningMode', 'bmc', 'bootMACAddress', 'bootMode', 'consumerRef', 'customDeploy', 'description',
        'disablePowerOff', 'externallyProvisioned', 'firmware', 'hardwareProfile', 'image', 'inspectionMode', 'metaData', 'networkData',
        'networkInterfaces', 'online', 'preprovisioningNetworkDataName', 'raid', 'rootDeviceHints', 'taints', 'userData',
      ].sort(),
    );
    expect(Object.keys(at('.status').properties ?? {}).sort()).toEqual(
      [
        'conditions', 'errorCount', 'errorMessage', 'errorType', 'goodCredentials', 'hardware', 'hardwareProfile', 'lastAttemptedImage',
        'lastUpdated', 'operationHistory', 'operationalStatus', 'poweredOn', 'provisioning', 'provisioningFailCount', 'triedCredentials',
      ].sort(),
    );
  });
});
