import { describe, expect, it } from '@jest/globals';
import { bareMetalHostSchema, bareMetalHostSpecSchema, bareMetalHostStatusSchema } from './baremetalhost.ts';
import { ERROR_TYPES } from './error-type.ts';
import { OPERATIONAL_STATUSES } from './operational-status.ts';
import { PROVISIONING_STATES, isProvisioningState } from './provisioning-state.ts';
import { seedDocumentsOfKind } from './testing/seed-fixtures.ts';

const minimalSpec = { online: true };

describe('BareMetalHost spec', () => {
  it('applies BMO defaults: UEFI boot and metadata cleaning', () => {
    const spec = bareMetalHostSpecSchema.parse(minimalSpec);
    expect(spec.bootMode).toBe('UEFI');
    expect(spec.automatedCleaningMode).toBe('metadata');
    expect(spec.bmc).toBeUndefined();
  });

  it('keeps values that are set', () => {
    const spec = bareMetalHostSpecSchema.parse({ ...minimalSpec, bootMode: 'legacy', automatedCleaningMode: 'disabled', inspectionMode: 'fast' });
    expect(spec).toMatchObject({ bootMode: 'legacy', automatedCleaningMode: 'disabled', inspectionMode: 'fast' });
  });

  it('requires online, and address and credentialsName once bmc is given', () => {
    expect(bareMetalHostSpecSchema.safeParse({}).success).toBe(false);
    expect(bareMetalHostSpecSchema.safeParse({ ...minimalSpec, bmc: { address: 'redfish://x' } }).success).toBe(false);
  });

  it.each([
    ['bootMode', { bootMode: 'Foo' }],
    ['automatedCleaningMode', { automatedCleaningMode: 'always' }],
    ['inspectionMode', { inspectionMode: 'slow' }],
    ['image.checksumType', { image: { url: 'http://x/i', checksumType: 'crc32' } }],
    ['image.format', { image: { url: 'http://x/i', format: 'iso' } }],
    ['bootMACAddress', { bootMACAddress: 'not-a-mac' }],
    ['hardware RAID level', { raid: { hardwareRAIDVolumes: [{ level: '3' }] } }],
    ['hardware RAID name length', { raid: { hardwareRAIDVolumes: [{ level: '1', name: 'x'.repeat(65) }] } }],
    ['hardware RAID disk count', { raid: { hardwareRAIDVolumes: [{ level: '1', numberOfPhysicalDisks: 0 }] } }],
    ['software RAID level', { raid: { softwareRAIDVolumes: [{ level: '5' }] } }],
    ['software RAID volume count', { raid: { softwareRAIDVolumes: [{ level: '1' }, { level: '1' }, { level: '0' }] } }],
    ['software RAID member count', { raid: { softwareRAIDVolumes: [{ level: '1', physicalDisks: [{ deviceName: '/dev/sda' }] }] } }],
    ['rootDeviceHints.minSizeGigabytes', { rootDeviceHints: { minSizeGigabytes: -1 } }],
    ['networkInterfaces[].switchPort.switchID', { networkInterfaces: [{ name: 'eth0', switchPort: { switchID: 'sw1', portID: 'p1' } }] }],
  ])('rejects an invalid %s', (_field, patch) => {
    expect(bareMetalHostSpecSchema.safeParse({ ...minimalSpec, ...patch }).success).toBe(false);
  });

  it('accepts every deprecated field old manifests carry', () => {
    const spec = bareMetalHostSpecSchema.parse({
      ...minimalSpec,
      hardwareProfile: 'libvirt',
      description: '',
      taints: [{ key: 'k', effect: 'NoSchedule' }],
      firmware: { virtualizationEnabled: true, sriovEnabled: false },
      externallyProvisioned: false,
      consumerRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'Metal3Machine', name: 'm', namespace: 'ns' },
    });
    expect(spec.hardwareProfile).toBe('libvirt');
    expect(spec.taints).toHaveLength(1);
  });

  it('fills software RAID rootVolume with false and keeps null RAID lists', () => {
    const spec = bareMetalHostSpecSchema.parse({
      ...minimalSpec,
      raid: { hardwareRAIDVolumes: null, softwareRAIDVolumes: [{ level: '1' }] },
    });
    expect(spec.raid?.hardwareRAIDVolumes).toBeNull();
    expect(spec.raid?.softwareRAIDVolumes?.[0]?.rootVolume).toBe(false);
  });

  it('ignores fields it does not know instead of failing', () => {
    expect(bareMetalHostSpecSchema.safeParse({ ...minimalSpec, someFutureField: { a: 1 } }).success).toBe(true);
  });
});

describe('BareMetalHost status', () => {
  it("reads missing always-written fields as Go's zero values", () => {
    expect(bareMetalHostStatusSchema.parse({})).toEqual({
      operationalStatus: '',
      errorMessage: '',
      poweredOn: false,
      errorCount: 0,
      provisioningFailCount: 0,
      provisioning: { state: '', ID: '' },
    });
  });

  it.each(OPERATIONAL_STATUSES)('accepts operationalStatus %j', (value) => {
    expect(bareMetalHostStatusSchema.parse({ operationalStatus: value }).operationalStatus).toBe(value);
  });

  it.each(ERROR_TYPES)('accepts errorType %j', (value) => {
    expect(bareMetalHostStatusSchema.parse({ errorType: value }).errorType).toBe(value);
  });

  it('rejects unknown operational statuses, error types and provisioning states', () => {
    expect(bareMetalHostStatusSchema.safeParse({ operationalStatus: 'broken' }).success).toBe(false);
    expect(bareMetalHostStatusSchema.safeParse({ errorType: 'bad error' }).success).toBe(false);
    expect(bareMetalHostStatusSchema.safeParse({ provisioning: { state: 'flying', ID: '' } }).success).toBe(false);
  });

  it('takes null operation history times, as Go writes them', () => {
    const status = bareMetalHostStatusSchema.parse({ operationHistory: { register: { start: null, end: null } } });
    expect(status.operationHistory?.register).toEqual({ start: null, end: null });
  });

  it('checks conditions the way the API server does', () => {
    const condition = { type: 'Ready', status: 'True', reason: 'Provisioned', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' };
    expect(bareMetalHostStatusSchema.safeParse({ conditions: [condition] }).success).toBe(true);
    expect(bareMetalHostStatusSchema.safeParse({ conditions: [{ ...condition, status: 'Maybe' }] }).success).toBe(false);
    expect(bareMetalHostStatusSchema.safeParse({ conditions: [{ ...condition, reason: 'has spaces' }] }).success).toBe(false);
    expect(bareMetalHostStatusSchema.safeParse({ conditions: Array.from({ length: 33 }, () => condition) }).success).toBe(false);
  });
});

describe('provisioning states', () => {
  it('lists every state BMO knows, in state-machine order', () => {
    expect(PROVISIONING_STATES).toEqual([
      '', 'unmanaged', 'registering', 'match profile', 'inspecting', 'preparing', 'ready', 'available',
      'provisioning', 'provisioned', 'externally provisioned', 'deprovisioning', 'powering off before delete', 'deleting',
    ]);
    expect(isProvisioningState('externally provisioned')).toBe(true);
    expect(isProvisioningState('validation error')).toBe(false);
  });
});

describe('BareMetalHost manifests from the seeds', () => {
  const hosts = seedDocumentsOfKind('BareMetalHost');

  it('finds both seed hosts', () => {
    expect(hosts.map(({ file }) => file)).toEqual(['000-baremetalhost-node-0.yaml', '001-baremetalhost-metal3-node01.yaml']);
  });

  it.each(hosts.map(({ file, document }) => [file, document] as const))('parses %s', (_file, document) => {
    const host = bareMetalHostSchema.parse(document);
    expect(host.apiVersion).toBe('metal3.io/v1alpha1');
    expect(host.spec.bmc?.address).toMatch(/^ipmi:\/\//);
  });

  it('keeps what the overview example sets, partial status included', () => {
    const host = bareMetalHostSchema.parse(hosts[0]!.document);
    expect(host.spec.image).toEqual({
      url: 'http://172.22.0.1/images/CENTOS_8_NODE_IMAGE_K8S_v1.22.2-raw.img',
      checksum: 'http://172.22.0.1/images/CENTOS_8_NODE_IMAGE_K8S_v1.22.2-raw.img.md5sum',
    });
    expect(host.spec.userData).toEqual({ name: 'test1-workers-vd4gj', namespace: 'metal3' });
    expect(host.status?.hardware?.storage?.[0]).toMatchObject({ hctl: '0:0:0:0', sizeBytes: 53687091200, type: 'HDD' });
    expect(host.status?.provisioning.state).toBe('');
  });

  it('keeps the 2019 blog host, deprecated fields included', () => {
    const host = bareMetalHostSchema.parse(hosts[1]!.document);
    expect(host.spec).toMatchObject({ online: false, description: '', hardwareProfile: 'libvirt', bootMACAddress: '00:c2:fc:3b:e1:01' });
  });

  it('keeps top-level fields it does not model', () => {
    const host = bareMetalHostSchema.parse({ ...hosts[1]!.document, extra: 'kept' });
    expect(host.extra).toBe('kept');
  });
});
