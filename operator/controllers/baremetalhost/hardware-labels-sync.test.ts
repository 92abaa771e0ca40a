import { describe, expect, it } from '@jest/globals';
import { DETACHED_ANNOTATION, PAUSED_ANNOTATION } from '../../api/annotations.ts';
import type { BareMetalHostInput } from '../../api/baremetalhost.ts';
import { bareMetalHostStatusSchema } from '../../api/baremetalhost-status.ts';
import { BAREMETALHOST_FINALIZER } from '../../api/finalizers.ts';
import { HARDWARE_CPU_COUNT_LABEL, HARDWARE_DISK_GIB_LABEL, HARDWARE_RAM_GIB_LABEL } from '../../api/labels.ts';
import { allows } from '../../runtime/predicates.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { hardwareLabelsChanged, hardwareLabelsPatch, wantedHardwareLabels } from './hardware-labels-sync.ts';
import { BMC_ADDRESS, hostFor, registeredStatus } from './testing/hosts.ts';
import { ReconcilerHarness, bmcSecret } from './testing/reconciler-harness.ts';
import { FIXTURE_HARDWARE, ScriptedProvisioner, withNode } from './testing/scripted-provisioner.ts';

// FIXTURE_HARDWARE: 8 x86_64 CPUs, 128 GiB, two NICs, one 465 GiB SSD at /dev/sda.
const FIXTURE_LABELS = {
  'hardware.metal3.io/cpu-count': '8',
  'hardware.metal3.io/cpu-arch': 'x86_64',
  'hardware.metal3.io/ram-gib': '128',
  'hardware.metal3.io/disk-gib': '465',
  'hardware.metal3.io/disk-type': 'ssd',
  'hardware.metal3.io/nic-count': '2',
};

describe('the hardware labels patch', () => {
  it('is undefined when our labels already match, whatever else is there', () => {
    expect(hardwareLabelsPatch({ ...FIXTURE_LABELS, app: 'x', 'hardware.metal3.io/gpu': 'a100' }, FIXTURE_LABELS)).toBeUndefined();
  });

  it('sets missing and wrong values, removes ours the hardware lost, and leaves users’ labels alone', () => {
    const current = { ...FIXTURE_LABELS, [HARDWARE_CPU_COUNT_LABEL]: '999', 'hardware.metal3.io/gpu': 'a100', app: 'x' };
    delete (current as Record<string, string>)[HARDWARE_RAM_GIB_LABEL];
    const { [HARDWARE_DISK_GIB_LABEL]: _gone, ...wanted } = FIXTURE_LABELS;
    expect(hardwareLabelsPatch(current, wanted)).toEqual({
      [HARDWARE_CPU_COUNT_LABEL]: '8',
      [HARDWARE_RAM_GIB_LABEL]: '128',
      [HARDWARE_DISK_GIB_LABEL]: null,
    });
  });

  it('adds every label to a host without labels', () => {
    expect(hardwareLabelsPatch(undefined, FIXTURE_LABELS)).toEqual(FIXTURE_LABELS);
  });
});

describe('the labels a host should carry', () => {
  it('are none for a host without hardware details', () => {
    expect(wantedHardwareLabels(hostFor())).toBeUndefined();
  });

  it('follow the root device hints of the spec, else the hardware profile', () => {
    const status = registeredStatus('available', { hardware: FIXTURE_HARDWARE });
    expect(wantedHardwareLabels(hostFor({ status }))).toEqual(FIXTURE_LABELS);
    const elsewhere = wantedHardwareLabels(hostFor({ status, spec: { rootDeviceHints: { deviceName: '/dev/sdb' } } }));
    expect(elsewhere).not.toHaveProperty([HARDWARE_DISK_GIB_LABEL]);
  });

  it('have no disk labels when a software RAID volume is the root', () => {
    const host = hostFor({
      status: registeredStatus('available', { hardware: FIXTURE_HARDWARE }),
      spec: { raid: { softwareRAIDVolumes: [{ level: '1', rootVolume: true }] } },
    });
    expect(wantedHardwareLabels(host)).not.toHaveProperty([HARDWARE_DISK_GIB_LABEL]);
  });
});

describe('the hardware labels predicate', () => {
  const object = (labels: Record<string, string>): KubeObject => ({ metadata: { name: 'h', labels } });
  const update = (a: KubeObject, b: KubeObject) => allows(hardwareLabelsChanged, { type: 'update', oldObject: a, object: b });

  it('wakes the host when one of our labels changes, and only then', () => {
    expect(update(object(FIXTURE_LABELS), object({ ...FIXTURE_LABELS, [HARDWARE_CPU_COUNT_LABEL]: '1' }))).toBe(true);
    expect(update(object(FIXTURE_LABELS), object({}))).toBe(true);
    expect(update(object(FIXTURE_LABELS), object({ ...FIXTURE_LABELS, app: 'x', 'hardware.metal3.io/gpu': 'a' }))).toBe(false);
  });
});

function host(overrides: { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: unknown } = {}): BareMetalHostInput {
  return {
    apiVersion: 'metal3.io/v1alpha1',
    kind: 'BareMetalHost',
    metadata: { name: 'host-0', namespace: 'test', uid: 'uid-0', generation: 1, resourceVersion: '5', finalizers: [BAREMETALHOST_FINALIZER], ...overrides.metadata },
    spec: { online: true, bmc: { address: BMC_ADDRESS, credentialsName: 'bmc-secret' }, ...overrides.spec },
    ...(overrides.status ? { status: bareMetalHostStatusSchema.parse(overrides.status) } : {}),
  } as BareMetalHostInput;
}

function harness(options: { host: BareMetalHostInput; hardwareLabels?: boolean; provisioner?: ScriptedProvisioner }) {
  const provisioner = options.provisioner ?? new ScriptedProvisioner();
  withNode(provisioner, { namespace: 'test', name: 'host-0' }, { inspected: true });
  const h = new ReconcilerHarness({ provisioner, host: options.host, hardwareLabels: options.hardwareLabels ?? true });
  h.secrets.set('test/bmc-secret', bmcSecret());
  return h;
}

const available = () => registeredStatus('available', { hardware: FIXTURE_HARDWARE });

describe('the reconciler with hardware labels on', () => {
  it('labels a host with hardware in one metadata merge patch, based on its resourceVersion', async () => {
    const h = harness({ host: host({ status: available() }) });
    await h.reconcile();
    expect(h.labelPatches()).toEqual([FIXTURE_LABELS]);
    const patch = h.patches.find((p) => p.options.subresource === undefined);
    expect(patch?.options.type).toBe('merge');
    expect(patch?.body).toEqual({ metadata: { resourceVersion: '5', labels: FIXTURE_LABELS } });
  });

  it('writes nothing when the labels are right', async () => {
    const h = harness({ host: host({ status: available(), metadata: { labels: { ...FIXTURE_LABELS, app: 'mine' } } }) });
    await h.reconcile();
    expect(h.labelPatches()).toEqual([]);
  });

  it('puts a hand-edited value right and removes a label the hardware no longer has', async () => {
    const hardware = { ...FIXTURE_HARDWARE, ramMebibytes: undefined };
    const h = harness({
      host: host({ status: registeredStatus('available', { hardware }), metadata: { labels: { ...FIXTURE_LABELS, [HARDWARE_CPU_COUNT_LABEL]: '1' } } }),
    });
    await h.reconcile();
    expect(h.labelPatches()).toEqual([{ [HARDWARE_CPU_COUNT_LABEL]: '8', [HARDWARE_RAM_GIB_LABEL]: null }]);
  });

  it('labels a host in the pass whose inspection completes', async () => {
    const provisioner = new ScriptedProvisioner();
    const h = harness({ host: host({ status: registeredStatus('inspecting') }), provisioner });
    await h.reconcile();
    expect(h.statusPatches()[0]).toMatchObject({ hardware: FIXTURE_HARDWARE });
    expect(h.labelPatches()).toEqual([FIXTURE_LABELS]);
  });

  it('leaves hosts without hardware details alone', async () => {
    const h = harness({ host: host({ status: registeredStatus('available'), metadata: { labels: { [HARDWARE_CPU_COUNT_LABEL]: '4' } } }) });
    await h.reconcile();
    expect(h.labelPatches()).toEqual([]);
  });

  it('does not touch a paused host', async () => {
    const h = harness({ host: host({ status: available(), metadata: { annotations: { [PAUSED_ANNOTATION]: '' } } }) });
    await h.reconcile();
    expect(h.patches).toEqual([]);
  });

  it('does not touch a host being deleted', async () => {
    const h = harness({ host: host({ status: available(), metadata: { deletionTimestamp: '2026-05-01T11:59:00Z' } }) });
    await h.reconcile();
    expect(h.labelPatches()).toEqual([]);
  });

  it('keeps labelling a detached host: it only left Ironic, its hardware is still known', async () => {
    const h = harness({ host: host({ status: available(), metadata: { annotations: { [DETACHED_ANNOTATION]: '' } } }) });
    await h.reconcile();
    expect(h.labelPatches()).toEqual([FIXTURE_LABELS]);
  });
});

describe('the reconciler with hardware labels off (the default, as in BMO)', () => {
  it('never writes labels', async () => {
    const h = harness({ host: host({ status: available(), metadata: { labels: { [HARDWARE_CPU_COUNT_LABEL]: '1' } } }), hardwareLabels: false });
    await h.reconcile();
    expect(h.labelPatches()).toEqual([]);
  });
});
