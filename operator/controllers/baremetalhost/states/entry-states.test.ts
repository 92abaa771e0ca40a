import { describe, expect, it } from '@jest/globals';
import { INSPECT_ANNOTATION } from '../../../api/annotations.ts';
import { ScriptedProvisioner } from '../testing/scripted-provisioner.ts';
import { contextFor, hostFor, reasonsOf } from '../testing/hosts.ts';
import { handleMatchProfile } from './match-profile.ts';
import { handleNone } from './none.ts';
import { handleRegistering } from './registering.ts';
import { handleUnmanaged } from './unmanaged.ts';

describe('none', () => {
  it('registers a host with BMC details', async () => {
    const host = hostFor();
    expect(await handleNone(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'registering' });
  });

  it('leaves a host without BMC details unmanaged, discovered', async () => {
    const host = hostFor({ spec: { bmc: undefined } });
    const context = contextFor(new ScriptedProvisioner());
    expect(await handleNone(host, context)).toEqual({ kind: 'complete', next: 'unmanaged' });
    expect(host.status.operationalStatus).toBe('discovered');
    expect(reasonsOf(context)).toEqual(['Discovered']);
    expect(context.metrics).toEqual([{ metric: 'hostUnmanaged' }]);
  });

  it('counts a credentials name alone as BMC details', async () => {
    const host = hostFor({ spec: { bmc: { address: '', credentialsName: 'bmc-secret' } } });
    expect(await handleNone(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'registering' });
  });
});

describe('unmanaged', () => {
  it('polls slowly without BMC details', async () => {
    const host = hostFor({ spec: { bmc: undefined }, status: { provisioning: { state: 'unmanaged' } } });
    expect(await handleUnmanaged(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'continue', afterMs: 600_000 });
  });

  it('registers once BMC details appear', async () => {
    const host = hostFor({ status: { provisioning: { state: 'unmanaged' } } });
    expect(await handleUnmanaged(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'registering' });
  });
});

describe('registering', () => {
  it('goes on to inspecting and resets the error count', async () => {
    const host = hostFor({ status: { errorCount: 2, provisioning: { state: 'registering' } } });
    expect(await handleRegistering(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'inspecting' });
    expect(host.status.errorCount).toBe(0);
  });

  it('skips inspection when it is disabled, by field or legacy annotation', async () => {
    const byField = hostFor({ spec: { inspectionMode: 'disabled' } });
    const byAnnotation = hostFor({ metadata: { annotations: { [INSPECT_ANNOTATION]: 'disabled' } } });
    for (const host of [byField, byAnnotation]) {
      expect(await handleRegistering(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'preparing' });
    }
  });

  it('goes to externally provisioned when the spec says so', async () => {
    const host = hostFor({ spec: { externallyProvisioned: true } });
    expect(await handleRegistering(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'externally provisioned' });
  });
});

describe('match profile', () => {
  it('passes straight on to preparing', async () => {
    const host = hostFor({ status: { errorCount: 1, provisioning: { state: 'match profile' } } });
    expect(await handleMatchProfile(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'preparing' });
    expect(host.status.errorCount).toBe(0);
  });
});
