import { describe, expect, it } from '@jest/globals';
import { metal3MachineSchema } from '../../api/index.ts';
import { machineSpecProblems } from './validate.ts';

const machine = (spec: Record<string, unknown>) => metal3MachineSchema.parse({ metadata: { name: 'm', namespace: 'ns' }, spec });
const IMAGE = { url: 'http://img/os.raw', checksum: 'abc' };

describe('machineSpecProblems', () => {
  it.each([
    ['an image with a checksum', { image: IMAGE }],
    ['a live-iso without checksum', { image: { url: 'http://img/live.iso', diskFormat: 'live-iso' } }],
    ['an oci:// image without checksum', { image: { url: 'oci://registry/os:1' } }],
    ['a custom deploy', { customDeploy: { method: 'install' } }],
    ['data Secrets in its own namespace, named or defaulted', { image: IMAGE, userData: { name: 'u', namespace: 'ns' }, metaData: { name: 'm' }, networkData: { name: 'n', namespace: 'ns' } }],
  ])('accepts %s', (_what, spec) => {
    expect(machineSpecProblems(machine(spec))).toEqual([]);
  });

  it.each([
    ['neither image nor custom deploy', {}, ['spec.image or spec.customDeploy is required']],
    ['both image and custom deploy', { image: IMAGE, customDeploy: { method: 'x' } }, ['spec.image and spec.customDeploy are mutually exclusive']],
    ['an http image without checksum', { image: { url: 'http://img/os.qcow2', diskFormat: 'qcow2' } },
      ['spec.image.checksum is required unless diskFormat is live-iso or the URL is oci://']],
    ['user data from another namespace', { image: IMAGE, userData: { name: 'u', namespace: 'other' } },
      ["spec.userData must be in the Metal3Machine's namespace ns, not other"]],
    ['meta and network data from another namespace', { image: IMAGE, metaData: { name: 'm', namespace: 'x' }, networkData: { name: 'n', namespace: 'y' } },
      ["spec.metaData must be in the Metal3Machine's namespace ns, not x", "spec.networkData must be in the Metal3Machine's namespace ns, not y"]],
  ])('rejects %s', (_what, spec, problems) => {
    expect(machineSpecProblems(machine(spec))).toEqual(problems);
  });

  it('reports every problem at once', () => {
    expect(machineSpecProblems(machine({ image: { url: 'http://img/os.raw' }, customDeploy: { method: 'x' }, userData: { name: 'u', namespace: 'z' } })))
      .toHaveLength(3);
  });
});
