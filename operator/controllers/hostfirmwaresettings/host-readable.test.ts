import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { bareMetalHostSchema } from '../../api/baremetalhost.ts';
import { firmwareReadMarker, hasFirmwareToRead } from './host-readable.ts';
import { hostNodeOrStateChanged } from './controller.ts';

const host = (operationalStatus: string, state = 'provisioned'): KubeObject =>
  ({ metadata: { name: 'h', namespace: 'n' }, status: { operationalStatus, provisioning: { ID: 'node-1', state } } }) as KubeObject;

describe('when the firmware is read again', () => {
  it('servicing starting or ending counts as a change, though the host stays provisioned', () => {
    expect(firmwareReadMarker(host('OK'))).toBe('node-1/provisioned');
    expect(firmwareReadMarker(host('servicing'))).toBe('node-1/provisioned/servicing');
    expect(hostNodeOrStateChanged.update!(host('OK'), host('servicing'))).toBe(true);
    expect(hostNodeOrStateChanged.update!(host('servicing'), host('OK'))).toBe(true);
  });

  it('starting provisioning or deprovisioning does not (nothing changed since available or provisioned); their end does', () => {
    expect(hostNodeOrStateChanged.update!(host('OK', 'available'), host('OK', 'provisioning'))).toBe(false);
    expect(hostNodeOrStateChanged.update!(host('OK', 'provisioning'), host('OK', 'provisioned'))).toBe(true);
    expect(hostNodeOrStateChanged.update!(host('OK', 'provisioned'), host('OK', 'deprovisioning'))).toBe(false);
    expect(hostNodeOrStateChanged.update!(host('OK', 'deprovisioning'), host('OK', 'available'))).toBe(true);
    expect(hostNodeOrStateChanged.update!(host('OK', 'inspecting'), host('OK', 'preparing'))).toBe(true);
  });

  it('other operational statuses do not', () => {
    expect(hostNodeOrStateChanged.update!(host('OK'), host('error'))).toBe(false);
    expect(hostNodeOrStateChanged.update!(host('OK', 'available'), host('OK', 'preparing'))).toBe(true);
  });
});

describe('which hosts have firmware to read (BMO\'s skipReconcileSubresource)', () => {
  const withAnnotations = (annotations: Record<string, string>, operationalStatus = 'OK') => ({ ...host(operationalStatus), metadata: { name: 'h', namespace: 'n', annotations } });
  const parsed = (object: KubeObject) => bareMetalHostSchema.parse({ ...object, spec: { online: true } });

  it('not a paused host, one with the detached annotation, or a detached one; a plain provisioned host yes', () => {
    expect(hasFirmwareToRead(parsed(withAnnotations({})))).toBe(true);
    expect(hasFirmwareToRead(parsed(withAnnotations({ 'baremetalhost.metal3.io/paused': 'metal3.io/capm3' })))).toBe(false);
    expect(hasFirmwareToRead(parsed(withAnnotations({ 'baremetalhost.metal3.io/detached': '' })))).toBe(false);
    expect(hasFirmwareToRead(parsed(withAnnotations({}, 'detached')))).toBe(false);
  });

  it('wakes the controllers when a pause or a detach annotation comes or goes, not for other annotations', () => {
    const paused = withAnnotations({ 'baremetalhost.metal3.io/paused': '' });
    expect(hostNodeOrStateChanged.update!(withAnnotations({}), paused)).toBe(true);
    expect(hostNodeOrStateChanged.update!(paused, withAnnotations({}))).toBe(true);
    expect(hostNodeOrStateChanged.update!(withAnnotations({}), withAnnotations({ 'baremetalhost.metal3.io/detached': '' }))).toBe(true);
    expect(hostNodeOrStateChanged.update!(withAnnotations({}), withAnnotations({ unrelated: 'x' }))).toBe(false);
  });
});
