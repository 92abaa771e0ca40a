import { describe, expect, it } from '@jest/globals';
import type { BareMetalHostInput } from '../../operator/api/index.ts';
import { bareMetalHostSchema } from '../../operator/api/index.ts';
import { metal3MachineSchema } from '../api/index.ts';
import { hostReleaseSpecChanges, hostSpecChanges } from './host-spec.ts';
import type { HostData } from './host-spec.ts';

const host = (spec: Partial<BareMetalHostInput['spec']> = {}) =>
  bareMetalHostSchema.parse({ metadata: { name: 'h', namespace: 'ns' }, spec: { online: false, ...spec } });
const machine = (spec: Record<string, unknown>) => metal3MachineSchema.parse({ metadata: { name: 'm', namespace: 'ns' }, spec });
const IMAGE = { url: 'http://img/os.qcow2', checksum: 'http://img/os.qcow2.sha256sum', checksumType: 'sha256', diskFormat: 'qcow2' } as const;
const data: HostData = { userData: { name: 'bootstrap', namespace: 'ns' } };

describe('hostSpecChanges', () => {
  it('writes the image with diskFormat mapped to format, the user data and online on a fresh host', () => {
    expect(hostSpecChanges(host(), machine({ image: IMAGE }), data)).toEqual({
      image: { url: IMAGE.url, checksum: IMAGE.checksum, checksumType: 'sha256', format: 'qcow2' },
      userData: { name: 'bootstrap', namespace: 'ns' },
      online: true,
    });
  });

  it('leaves out image fields the machine does not set', () => {
    expect(hostSpecChanges(host(), machine({ image: { url: 'oci://registry/os:1' } }), data).image).toEqual({ url: 'oci://registry/os:1' });
    expect(hostSpecChanges(host(), machine({ image: { url: 'http://img/live.iso', diskFormat: 'live-iso' } }), data).image)
      .toEqual({ url: 'http://img/live.iso', format: 'live-iso' });
  });

  it('writes a custom deploy instead of an image', () => {
    expect(hostSpecChanges(host(), machine({ customDeploy: { method: 'install_coreos' } }), data))
      .toEqual({ customDeploy: { method: 'install_coreos' }, userData: data.userData, online: true });
  });

  it('writes both an image and a custom deploy when the machine has both, as CAPM3 does', () => {
    expect(hostSpecChanges(host(), machine({ image: IMAGE, customDeploy: { method: 'install_coreos' } }), data)).toEqual({
      image: { url: IMAGE.url, checksum: IMAGE.checksum, checksumType: 'sha256', format: 'qcow2' },
      customDeploy: { method: 'install_coreos' }, userData: data.userData, online: true,
    });
  });

  it('passes meta data and network data along with the user data', () => {
    const full: HostData = { ...data, metaData: { name: 'meta', namespace: 'ns' }, networkData: { name: 'net', namespace: 'ns' } };
    expect(hostSpecChanges(host(), machine({ image: IMAGE }), full)).toMatchObject({
      userData: full.userData, metaData: full.metaData, networkData: full.networkData,
    });
  });

  it.each([
    ['an image', { image: { url: 'http://img/old.raw' } }],
    ['a custom deploy', { customDeploy: { method: 'old' } }],
  ])('never re-images a host that already has %s, nor changes its data', (_what, existing) => {
    const changes = hostSpecChanges(host({ ...existing, online: true }), machine({ image: IMAGE }),
      { ...data, metaData: { name: 'meta', namespace: 'ns' } });
    expect(changes).toEqual({});
  });

  it('writes no image until there is user data', () => {
    expect(hostSpecChanges(host(), machine({ image: IMAGE }), {})).toEqual({ online: true });
  });

  it('passes the cleaning mode when it differs and keeps the host on', () => {
    expect(hostSpecChanges(host({ image: { url: 'x' }, automatedCleaningMode: 'metadata' }), machine({ image: IMAGE, automatedCleaningMode: 'disabled' }), data))
      .toEqual({ automatedCleaningMode: 'disabled', online: true });
    expect(hostSpecChanges(host({ image: { url: 'x' }, automatedCleaningMode: 'disabled', online: true }),
      machine({ image: IMAGE, automatedCleaningMode: 'disabled' }), data)).toEqual({});
    // No mode on the machine: the host's own stays.
    expect(hostSpecChanges(host({ image: { url: 'x' }, automatedCleaningMode: 'disabled', online: true }), machine({ image: IMAGE }), data)).toEqual({});
  });
});

describe('hostReleaseSpecChanges', () => {
  const provisioned = { image: { url: 'x' }, userData: { name: 'u' }, metaData: { name: 'm' }, networkData: { name: 'n' }, online: true };

  it('clears what the machine wrote and powers the host off', () => {
    expect(hostReleaseSpecChanges(host(provisioned), { fastTrack: false }))
      .toEqual({ image: null, userData: null, metaData: null, networkData: null, online: false });
    expect(hostReleaseSpecChanges(host({ customDeploy: { method: 'c' }, online: true }), { fastTrack: false }))
      .toEqual({ customDeploy: null, online: false });
  });

  it('keeps the host on with fast track, unless cleaning is disabled', () => {
    expect(hostReleaseSpecChanges(host(provisioned), { fastTrack: true })).toEqual({ image: null, userData: null, metaData: null, networkData: null });
    expect(hostReleaseSpecChanges(host({ ...provisioned, automatedCleaningMode: 'disabled' }), { fastTrack: true }))
      .toMatchObject({ image: null, online: false });
    expect(hostReleaseSpecChanges(host({ online: false }), { fastTrack: true })).toEqual({ online: true });
  });

  it('keeps a host that may not be powered off on, whatever the cleaning mode and fast track (BMO refuses online: false for it)', () => {
    for (const fastTrack of [false, true]) {
      expect(hostReleaseSpecChanges(host({ ...provisioned, disablePowerOff: true }), { fastTrack }))
        .toEqual({ image: null, userData: null, metaData: null, networkData: null });
      expect(hostReleaseSpecChanges(host({ ...provisioned, disablePowerOff: true, automatedCleaningMode: 'disabled' }), { fastTrack }))
        .toEqual({ image: null, userData: null, metaData: null, networkData: null });
    }
  });

  it('is empty once the host is released', () => {
    expect(hostReleaseSpecChanges(host({ online: false }), { fastTrack: false })).toEqual({});
    expect(hostReleaseSpecChanges(host({ online: true }), { fastTrack: true })).toEqual({});
    expect(hostReleaseSpecChanges(host({ online: false, automatedCleaningMode: 'disabled' }), { fastTrack: true })).toEqual({});
  });
});
