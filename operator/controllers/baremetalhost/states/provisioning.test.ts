import { describe, expect, it } from '@jest/globals';
import { REBOOT_ANNOTATION_PREFIX } from '../../../api/annotations.ts';
import { HostConfigError } from '../../../configdrive/index.ts';
import { busy, done, failed } from '../../../provisioner/result.ts';
import { ScriptedProvisioner, withNode } from '../testing/scripted-provisioner.ts';
import { contextFor, hostFor, reasonsOf, registeredStatus } from '../testing/hosts.ts';
import { handleProvisioning } from './provisioning.ts';

const image = { url: 'http://127.0.0.1/image.raw', checksum: 'abc', checksumType: 'sha256' as const, format: 'raw' as const };
const provisioning = (extra: Parameters<typeof registeredStatus>[1] = {}) => hostFor({ spec: { image }, status: registeredStatus('provisioning', extra) });

describe('provisioning', () => {
  it('deploys the image with its config drive, then records it and moves to provisioned', async () => {
    const provisioner = new ScriptedProvisioner({ busyPolls: 1 });
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const host = provisioning({ errorCount: 2, provisioningFailCount: 1 });
    const context = contextFor(provisioner);
    expect(await handleProvisioning(host, context)).toEqual({ kind: 'continue', afterMs: 10 });
    expect(await handleProvisioning(host, context)).toEqual({ kind: 'complete', next: 'provisioned' });
    expect(provisioner.callsOf('provision')[0]).toMatchObject({
      image,
      configDrive: { meta_data: { uuid: 'uid-0' } },
      rootDeviceHints: { deviceName: '/dev/sda' },
      bootMode: 'UEFI',
    });
    expect(host.status.provisioning.image).toEqual(image);
    expect(host.status.lastAttemptedImage).toEqual(image);
    expect(host.status).toMatchObject({ errorCount: 0, provisioningFailCount: 0 });
    expect(reasonsOf(context)).toEqual(['ProvisioningComplete']);
  });

  it('records a provisioning error from the provisioner', async () => {
    const provisioner = new ScriptedProvisioner().script('provision', failed('Image provisioning failed (url: x): boom'));
    expect(await handleProvisioning(provisioning(), contextFor(provisioner))).toEqual({
      kind: 'failed',
      errorType: 'provisioning error',
      message: 'Image provisioning failed (url: x): boom',
    });
  });

  it('after a recorded failure deprovisions and counts the failure against the image', async () => {
    const host = provisioning({ errorType: 'provisioning error', operationalStatus: 'error', errorCount: 1, provisioningFailCount: 1 });
    expect(await handleProvisioning(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'deprovisioning' });
    expect(host.status.provisioningFailCount).toBe(2);
  });

  it('deprovisions without counting when the image is removed', async () => {
    const host = hostFor({ status: registeredStatus('provisioning') });
    expect(await handleProvisioning(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'deprovisioning' });
    expect(host.status.provisioningFailCount).toBe(0);
  });

  it('rejects an image without checksum before calling the provisioner', async () => {
    const provisioner = new ScriptedProvisioner();
    const host = hostFor({ spec: { image: { url: 'http://127.0.0.1/image.raw' } }, status: registeredStatus('provisioning') });
    expect(await handleProvisioning(host, contextFor(provisioner))).toEqual({
      kind: 'failed',
      errorType: 'provisioning error',
      message: 'Validation failed: checksum is required for normal images',
    });
    expect(provisioner.callsOf('provision')).toEqual([]);
  });

  it('turns bad Secret data into a provisioning error naming Secret and key', async () => {
    const provisioner = new ScriptedProvisioner();
    const message = 'could not retrieve user data: Secret user-data does not contain key userData';
    const context = contextFor(provisioner);
    context.ports.readConfigDrive = async () => ({
      ok: false,
      error: new HostConfigError({ kind: 'missing-key', secret: 'test/user-data', key: 'userData', message }),
    });
    expect(await handleProvisioning(provisioning(), context)).toEqual({ kind: 'failed', errorType: 'provisioning error', message });
    expect(context.metrics).toEqual([{ metric: 'hostConfigDataError', dataType: 'userData' }]);
    expect(provisioner.callsOf('provision')).toEqual([]);
  });

  it('passes a forced reboot on and drops a one-shot reboot annotation', async () => {
    const provisioner = new ScriptedProvisioner().script('provision', busy(10, 'deploying'));
    const host = hostFor({ spec: { image }, metadata: { annotations: { [REBOOT_ANNOTATION_PREFIX]: '{"force":true}' } }, status: registeredStatus('provisioning') });
    const context = contextFor(provisioner);
    expect(await handleProvisioning(host, context)).toEqual({ kind: 'continue' });
    expect(provisioner.callsOf('provision')[0]).toMatchObject({ forceReboot: true });
    expect(context.removedAnnotations).toEqual([[REBOOT_ANNOTATION_PREFIX]]);
  });

  it('records a custom deploy when done', async () => {
    const provisioner = new ScriptedProvisioner().script('provision', done());
    const host = hostFor({ spec: { customDeploy: { method: 'install_coreos' } }, status: registeredStatus('provisioning') });
    expect(await handleProvisioning(host, contextFor(provisioner))).toEqual({ kind: 'complete', next: 'provisioned' });
    expect(host.status.provisioning.customDeploy).toEqual({ method: 'install_coreos' });
  });

  it('passes the OCI pull credentials to the provisioner', async () => {
    const provisioner = new ScriptedProvisioner().script('provision', done());
    const context = contextFor(provisioner);
    context.ports.readImagePullSecret = async () => ({ ok: true, credentials: 'robot:s3cret' });
    const host = hostFor({ spec: { image: { url: 'oci://127.0.0.1:5000/os:1', ociAuthSecretName: 'pull' } }, status: registeredStatus('provisioning') });
    expect(await handleProvisioning(host, context)).toEqual({ kind: 'complete', next: 'provisioned' });
    expect(provisioner.callsOf('provision')[0]).toMatchObject({ imagePullSecret: 'robot:s3cret' });
  });

  it('turns an unusable pull Secret into a provisioning error with BMO\'s event, before calling the provisioner', async () => {
    const provisioner = new ScriptedProvisioner();
    const context = contextFor(provisioner);
    const message = 'secret "pull" has unsupported type "Opaque" (expected kubernetes.io/dockerconfigjson or kubernetes.io/dockercfg)';
    context.ports.readImagePullSecret = async () => ({ ok: false, message, reason: 'ImageAuthFormatUnsupported' });
    const host = hostFor({ spec: { image: { url: 'oci://127.0.0.1:5000/os:1', ociAuthSecretName: 'pull' } }, status: registeredStatus('provisioning') });
    expect(await handleProvisioning(host, context)).toEqual({ kind: 'failed', errorType: 'provisioning error', message });
    expect(context.events).toEqual([{ type: 'Warning', reason: 'ImageAuthFormatUnsupported', message }]);
    expect(provisioner.callsOf('provision')).toEqual([]);
  });
});
