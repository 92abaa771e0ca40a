import { describe, expect, it } from '@jest/globals';
import { NeedsRegistrationError, failed } from '../../../provisioner/result.ts';
import { ScriptedProvisioner, withNode } from '../testing/scripted-provisioner.ts';
import { contextFor, hostFor, reasonsOf, registeredStatus } from '../testing/hosts.ts';
import { handleDeprovisioning } from './deprovisioning.ts';

const image = { url: 'http://127.0.0.1/image.raw', checksum: 'abc' };
const DELETED_AT = '2026-05-01T11:59:00Z';

describe('deprovisioning', () => {
  it('adopts, cleans per automatedCleaningMode, forgets the image and becomes available', async () => {
    const provisioner = new ScriptedProvisioner({ busyPolls: 1 });
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { image });
    const host = hostFor({ spec: { automatedCleaningMode: 'disabled' }, status: registeredStatus('deprovisioning', { errorCount: 1, provisioning: { image } }) });
    const context = contextFor(provisioner);
    expect(await handleDeprovisioning(host, context)).toEqual({ kind: 'continue', afterMs: 10 });
    expect(await handleDeprovisioning(host, context)).toEqual({ kind: 'complete', next: 'available' });
    expect(provisioner.callsOf('adopt')[0]).toMatchObject({ deprovisioning: true });
    expect(provisioner.callsOf('deprovision')[0]).toMatchObject({ automatedCleaningMode: 'disabled', retryAfterFailure: false });
    expect(host.status.provisioning.image).toBeUndefined();
    expect(host.status.provisioning.rootDeviceHints).toBeUndefined();
    expect(host.status.errorCount).toBe(0);
    expect(reasonsOf(context)).toEqual(['DeprovisioningComplete']);
  });

  it('goes on to power off when the host is being deleted', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const host = hostFor({ metadata: { deletionTimestamp: DELETED_AT }, status: registeredStatus('deprovisioning') });
    expect(await handleDeprovisioning(host, contextFor(provisioner))).toEqual({ kind: 'complete', next: 'powering off before delete' });
  });

  it('records a provisioning error and retries the operation next time', async () => {
    const provisioner = new ScriptedProvisioner().script('deprovision', failed('Cleaning failed'));
    const host = hostFor({ status: registeredStatus('deprovisioning') });
    expect(await handleDeprovisioning(host, contextFor(provisioner))).toEqual({ kind: 'failed', errorType: 'provisioning error', message: 'Cleaning failed' });
    host.status.errorType = 'provisioning error';
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    await handleDeprovisioning(host, contextFor(provisioner));
    expect(provisioner.callsOf('deprovision')[1]).toMatchObject({ retryAfterFailure: true });
  });

  it('skips to deleting when nothing is registered and there are no credentials', async () => {
    const provisioner = new ScriptedProvisioner().script('deprovision', new NeedsRegistrationError('no node'));
    const host = hostFor({ metadata: { deletionTimestamp: DELETED_AT }, status: registeredStatus('deprovisioning') });
    const context = contextFor(provisioner, { credentials: undefined });
    expect(await handleDeprovisioning(host, context)).toEqual({ kind: 'complete', next: 'deleting' });
    expect(context.metrics).toEqual([{ metric: 'deleteWithoutPoweringOff' }]);
  });

  it('does not skip when credentials exist (registration will fix it)', async () => {
    const provisioner = new ScriptedProvisioner().script('deprovision', new NeedsRegistrationError('no node'));
    const host = hostFor({ metadata: { deletionTimestamp: DELETED_AT }, status: registeredStatus('deprovisioning') });
    await expect(handleDeprovisioning(host, contextFor(provisioner))).rejects.toBeInstanceOf(NeedsRegistrationError);
  });
});
