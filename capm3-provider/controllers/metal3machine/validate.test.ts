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
    ['an OCI:// image (any case, as CAPM3 compares it) without checksum', { image: { url: 'OCI://registry/os:1' } }],
    ['a custom deploy', { customDeploy: { method: 'install' } }],
    ['an image with a custom deploy (CAPM3 writes both to the host)', { image: IMAGE, customDeploy: { method: 'x' } }],
    ['data Secrets in its own namespace, named or defaulted', { image: IMAGE, userData: { name: 'u', namespace: 'ns' }, metaData: { name: 'm' }, networkData: { name: 'n', namespace: 'ns' } }],
  ])('accepts %s', (_what, spec) => {
    expect(machineSpecProblems(machine(spec))).toEqual([]);
  });

  it.each([
    ['neither image nor custom deploy', {}, ['spec.image: Required value: either image or customDeploy is required']],
    ['an http image without checksum', { image: { url: 'http://img/os.qcow2', diskFormat: 'qcow2' } },
      ['spec.image.checksum: Required value: needed unless diskFormat is live-iso or the URL is oci://']],
    ['an oci:// image with a checksum and its type', { image: { url: 'oci://registry/os:1', checksum: 'abc', checksumType: 'sha256' } },
      ['spec.image.checksum: Forbidden: must be empty for oci:// images', 'spec.image.checksumType: Forbidden: must be empty for oci:// images']],
    ['an image URL that is not one', { image: { url: 'os.raw', checksum: 'abc' } }, ['spec.image.url: Invalid value: "os.raw": not a valid URL']],
    ['user data from another namespace', { image: IMAGE, userData: { name: 'u', namespace: 'other' } },
      ['spec.userData.namespace: Forbidden: cross-namespace secret references are not allowed (the Metal3Machine is in ns, not other)']],
    ['meta and network data from another namespace', { image: IMAGE, metaData: { name: 'm', namespace: 'x' }, networkData: { name: 'n', namespace: 'y' } },
      ['spec.metaData.namespace: Forbidden: cross-namespace secret references are not allowed (the Metal3Machine is in ns, not x)',
        'spec.networkData.namespace: Forbidden: cross-namespace secret references are not allowed (the Metal3Machine is in ns, not y)']],
  ])('rejects %s', (_what, spec, problems) => {
    expect(machineSpecProblems(machine(spec))).toEqual(problems);
  });

  it('reports every problem at once', () => {
    expect(machineSpecProblems(machine({ image: { url: 'http://img/os.raw' }, userData: { name: 'u', namespace: 'z' }, metaData: { name: 'm', namespace: 'y' } })))
      .toHaveLength(3);
  });

  it('leaves the image unchecked when a custom deploy method replaces it, as CAPM3 does', () => {
    expect(machineSpecProblems(machine({ image: { url: 'http://img/os.raw' }, customDeploy: { method: 'x' } }))).toEqual([]);
  });
});
