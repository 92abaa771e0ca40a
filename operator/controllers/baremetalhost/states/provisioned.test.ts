import { describe, expect, it } from '@jest/globals';
import { busy, failed } from '../../../provisioner/result.ts';
import { ScriptedProvisioner, withNode } from '../testing/scripted-provisioner.ts';
import { contextFor, hostFor, registeredStatus } from '../testing/hosts.ts';
import { handleExternallyProvisioned } from './externally-provisioned.ts';
import { handleProvisioned } from './provisioned.ts';

const image = { url: 'http://127.0.0.1/image.raw', checksum: 'abc', checksumType: 'sha256' as const, format: 'raw' as const };

describe('provisioned', () => {
  it('adopts, then keeps the power as asked and polls every minute', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: true });
    const host = hostFor({ spec: { image }, status: registeredStatus('provisioned', { poweredOn: true, provisioning: { image } }) });
    expect(await handleProvisioned(host, contextFor(provisioner))).toEqual({ kind: 'continue', idle: true });
    expect(provisioner.callsOf('adopt')[0]).toMatchObject({ retryAfterFailure: false, deprovisioning: false });
  });

  it('deprovisions when the image changes or goes away', async () => {
    const changed = hostFor({ spec: { image: { ...image, url: 'http://127.0.0.1/new.raw' } }, status: registeredStatus('provisioned', { provisioning: { image } }) });
    const removed = hostFor({ status: registeredStatus('provisioned', { provisioning: { image } }) });
    for (const host of [changed, removed]) {
      expect(await handleProvisioned(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'deprovisioning' });
    }
  });

  it('records a provisioned registration error when adoption fails', async () => {
    const provisioner = new ScriptedProvisioner().script('adopt', failed('Host adoption failed: no power'));
    const host = hostFor({ spec: { image }, status: registeredStatus('provisioned', { provisioning: { image } }) });
    expect(await handleProvisioned(host, contextFor(provisioner))).toEqual({
      kind: 'failed',
      errorType: 'provisioned registration error',
      message: 'Host adoption failed: no power',
    });
  });

  it('waits for a running adoption', async () => {
    const provisioner = new ScriptedProvisioner().script('adopt', busy(3000, 'adopting'));
    const host = hostFor({ spec: { image }, status: registeredStatus('provisioned', { provisioning: { image } }) });
    expect(await handleProvisioned(host, contextFor(provisioner))).toEqual({ kind: 'continue', afterMs: 3000 });
  });
});

describe('externally provisioned', () => {
  it('manages power while the spec says externally provisioned', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const host = hostFor({ spec: { externallyProvisioned: true }, status: registeredStatus('externally provisioned') });
    const action = await handleExternallyProvisioned(host, contextFor(provisioner));
    expect(provisioner.callsOf('powerOn')).toHaveLength(1);
    expect(action).toEqual({ kind: 'update', idle: true });
    expect(host.status.poweredOn).toBe(true);
  });

  it('moves to provisioned with the spec image recorded when the flag is cleared', async () => {
    const host = hostFor({ spec: { image }, status: registeredStatus('externally provisioned') });
    expect(await handleExternallyProvisioned(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'provisioned' });
    expect(host.status.provisioning.image).toEqual(image);
  });
});
