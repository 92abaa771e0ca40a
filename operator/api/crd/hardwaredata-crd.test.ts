import { describe, expect, it } from '@jest/globals';
import { buildCustomResourceDefinition } from './custom-resource-definition.ts';
import { hardwareDataCrdSource } from './hardwaredata-crd.ts';
import { schemaAt } from './walk-schema.ts';

const crd = buildCustomResourceDefinition(hardwareDataCrdSource);
const version = crd.spec.versions[0]!;

describe('HardwareData CRD', () => {
  it('has BMO names and its single Age column, and no status', () => {
    expect(crd.metadata.name).toBe('hardwaredata.metal3.io');
    expect(crd.spec.names).toEqual({ kind: 'HardwareData', listKind: 'HardwareDataList', plural: 'hardwaredata', singular: 'hardwaredata', shortNames: ['hd'] });
    expect(crd.spec.scope).toBe('Namespaced');
    expect(version.subresources).toBeUndefined();
    expect(version.additionalPrinterColumns).toEqual([
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: expect.any(String) },
    ]);
    expect(Object.keys(version.schema.openAPIV3Schema.properties ?? {})).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
  });

  it('holds the same hardware details as BareMetalHost status', () => {
    const hardware = schemaAt(version.schema.openAPIV3Schema, '.spec.hardware');
    expect(Object.keys(hardware.properties ?? {}).sort()).toEqual(['cpu', 'firmware', 'hostname', 'nics', 'ramMebibytes', 'storage', 'systemVendor']);
    expect(schemaAt(hardware, '.storage[].sizeBytes')).toMatchObject({ type: 'integer', format: 'int64' });
    expect(schemaAt(hardware, '.cpu.clockMegahertz')).toMatchObject({ type: 'number', format: 'double' });
  });
});
