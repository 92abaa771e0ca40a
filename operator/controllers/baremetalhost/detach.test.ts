import { describe, expect, it } from '@jest/globals';
import { DETACHED_ANNOTATION } from '../../api/annotations.ts';
import { failed } from '../../provisioner/result.ts';
import { checkDetachedHost } from './detach.ts';
import { ScriptedProvisioner, withNode } from './testing/scripted-provisioner.ts';
import { contextFor, hostFor, reasonsOf, registeredStatus } from './testing/hosts.ts';

const annotated = (value: string) => ({ annotations: { [DETACHED_ANNOTATION]: value } });

describe('the detached annotation', () => {
  it('removes the node without deprovisioning and marks the host detached, then polls slowly', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const host = hostFor({ metadata: annotated(''), status: registeredStatus('provisioned') });
    const context = contextFor(provisioner);
    expect(await checkDetachedHost(host, context)).toEqual({ kind: 'update', afterMs: 600_000 });
    expect(host.status.operationalStatus).toBe('detached');
    expect(provisioner.nodes.size).toBe(0);
    expect(provisioner.callsOf('deprovision')).toEqual([]);
    expect(await checkDetachedHost(host, context)).toEqual({ kind: 'continue', afterMs: 600_000 });
  });

  it('waits for a busy state to finish unless forced', async () => {
    const provisioner = new ScriptedProvisioner();
    const waiting = hostFor({ metadata: annotated(''), status: registeredStatus('provisioning') });
    expect(await checkDetachedHost(waiting, contextFor(provisioner))).toBeUndefined();
    const forced = hostFor({ metadata: annotated('{"force":true}'), status: registeredStatus('provisioning') });
    await checkDetachedHost(forced, contextFor(provisioner));
    expect(provisioner.callsOf('detach')).toEqual([expect.objectContaining({ force: true })]);
  });

  it('records a detach error, and clears it once detached', async () => {
    const provisioner = new ScriptedProvisioner().script('detach', failed('node locked'));
    const host = hostFor({ metadata: annotated(''), status: registeredStatus('available') });
    expect(await checkDetachedHost(host, contextFor(provisioner))).toEqual({ kind: 'failed', errorType: 'detach error', message: 'node locked' });
    host.status.errorType = 'detach error';
    host.status.errorCount = 1;
    await checkDetachedHost(host, contextFor(provisioner));
    expect(host.status).toMatchObject({ operationalStatus: 'detached', errorCount: 0 });
    expect(host.status.errorType).toBeUndefined();
  });

  it('goes back to OK (or error) once the annotation is removed', async () => {
    const back = hostFor({ status: registeredStatus('provisioned', { operationalStatus: 'detached' }) });
    expect(await checkDetachedHost(back, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'update' });
    expect(back.status.operationalStatus).toBe('OK');
    const failing = hostFor({ status: registeredStatus('provisioned', { operationalStatus: 'detached', errorType: 'power management error' }) });
    await checkDetachedHost(failing, contextFor(new ScriptedProvisioner()));
    expect(failing.status.operationalStatus).toBe('error');
  });

  it('says when it ignores an unreadable value', async () => {
    const host = hostFor({ metadata: annotated('{not json'), status: registeredStatus('inspecting') });
    const context = contextFor(new ScriptedProvisioner());
    expect(await checkDetachedHost(host, context)).toBeUndefined();
    expect(reasonsOf(context)).toEqual(['InvalidAnnotationValue']);
  });
});
