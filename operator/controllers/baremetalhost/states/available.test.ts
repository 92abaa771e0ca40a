import { describe, expect, it } from '@jest/globals';
import { INSPECT_ANNOTATION } from '../../../api/annotations.ts';
import { ScriptedProvisioner, withNode } from '../testing/scripted-provisioner.ts';
import { contextFor, hostFor, registeredStatus } from '../testing/hosts.ts';
import { handleAvailable, retryLimitMessage } from './available.ts';

const image = { url: 'http://127.0.0.1/image.raw', checksum: 'abc', checksumType: 'sha256' as const, format: 'raw' as const };

describe('available', () => {
  it('starts provisioning when online with a new image', async () => {
    const provisioner = new ScriptedProvisioner();
    const host = hostFor({ spec: { image }, status: registeredStatus('available') });
    expect(await handleAvailable(host, contextFor(provisioner))).toEqual({ kind: 'complete', next: 'provisioning' });
  });

  it('starts provisioning for a custom deploy method', async () => {
    const host = hostFor({ spec: { customDeploy: { method: 'install_coreos' } }, status: registeredStatus('available') });
    expect(await handleAvailable(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'provisioning' });
  });

  it('does not provision an offline host; it manages power instead', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const host = hostFor({ spec: { image, online: false }, status: registeredStatus('available') });
    expect(await handleAvailable(host, contextFor(provisioner))).toEqual({ kind: 'continue', idle: true });
  });

  it('goes to externally provisioned, clearing provisioning settings', async () => {
    const host = hostFor({ spec: { externallyProvisioned: true }, status: registeredStatus('available') });
    expect(await handleAvailable(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'externally provisioned' });
    expect(host.status.provisioning.rootDeviceHints).toBeUndefined();
  });

  it('re-inspects on the inspect annotation', async () => {
    const host = hostFor({ metadata: { annotations: { [INSPECT_ANNOTATION]: '' } }, status: registeredStatus('available') });
    expect(await handleAvailable(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'inspecting' });
  });

  it('prepares again when RAID or root device hints changed', async () => {
    const host = hostFor({ spec: { rootDeviceHints: { deviceName: '/dev/sdb' } }, status: registeredStatus('available') });
    expect(await handleAvailable(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'preparing' });
  });

  it('stops at the retry cap for the same image', async () => {
    const host = hostFor({ spec: { image }, status: registeredStatus('available', { provisioningFailCount: 5, lastAttemptedImage: image }) });
    expect(await handleAvailable(host, contextFor(new ScriptedProvisioner()))).toEqual({
      kind: 'failed',
      errorType: 'provisioning error',
      message: 'provisioning failed 5 times, retry limit (5) reached; change image or reset provisioningFailCount to retry',
    });
    expect(retryLimitMessage(3, 3)).toContain('retry limit (3) reached');
  });

  it('starts over with a different image', async () => {
    const host = hostFor({ spec: { image: { ...image, url: 'http://127.0.0.1/other.raw' } }, status: registeredStatus('available', { provisioningFailCount: 5, lastAttemptedImage: image }) });
    expect(await handleAvailable(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'provisioning' });
    expect(host.status.provisioningFailCount).toBe(0);
  });

  it('has no cap when the limit is 0', async () => {
    const host = hostFor({ spec: { image }, status: registeredStatus('available', { provisioningFailCount: 50, lastAttemptedImage: image }) });
    const context = contextFor(new ScriptedProvisioner(), { settings: { maxProvisioningRetries: 0, deletionTimeoutMs: 0 } });
    expect(await handleAvailable(host, context)).toEqual({ kind: 'complete', next: 'provisioning' });
  });

  it('resets the fail count when the image is withdrawn', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: true });
    const host = hostFor({ status: registeredStatus('available', { provisioningFailCount: 3, lastAttemptedImage: image, poweredOn: true }) });
    await handleAvailable(host, contextFor(provisioner));
    expect(host.status.provisioningFailCount).toBe(0);
    expect(host.status.lastAttemptedImage).toBeUndefined();
  });

  it('handles the legacy ready state the same way', async () => {
    const host = hostFor({ spec: { image }, status: registeredStatus('ready') });
    expect(await handleAvailable(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'provisioning' });
  });
});
