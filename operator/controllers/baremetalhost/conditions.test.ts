import { describe, expect, it } from '@jest/globals';
import { bmcProblemKindIn, computeConditions } from './conditions.ts';
import { TEST_NOW, hostFor, registeredStatus } from './testing/hosts.ts';

const summary = (conditions: ReturnType<typeof computeConditions>) => Object.fromEntries(conditions.map((c) => [c.type, `${c.status}/${c.reason}`]));

describe('conditions', () => {
  it('describes an available host', () => {
    const conditions = computeConditions(hostFor({ status: registeredStatus('available') }), TEST_NOW);
    expect(summary(conditions)).toEqual({
      Manageable: 'True/Manageable',
      AvailableForProvisioning: 'True/Available',
      Provisioned: 'False/NotProvisioned',
      Ready: 'False/NotProvisioned',
      Progressing: 'False/NotProgressing',
      Healthy: 'Unknown/Unknown',
    });
    expect(conditions[0]).toMatchObject({ observedGeneration: 1, lastTransitionTime: '2026-05-01T12:00:00Z' });
  });

  it('marks a provisioned host ready, unless in error or detached', () => {
    expect(summary(computeConditions(hostFor({ status: registeredStatus('provisioned') }), TEST_NOW)).Ready).toBe('True/Provisioned');
    expect(summary(computeConditions(hostFor({ status: registeredStatus('provisioned', { operationalStatus: 'error' }) }), TEST_NOW)).Ready).toBe('False/Error');
    const detached = summary(computeConditions(hostFor({ status: registeredStatus('provisioned', { operationalStatus: 'detached' }) }), TEST_NOW));
    expect([detached.Ready, detached.Progressing]).toEqual(['False/Detached', 'False/Detached']);
  });

  it('shows registration failures and progress reasons', () => {
    expect(summary(computeConditions(hostFor({ status: registeredStatus('registering', { operationalStatus: 'error' }) }), TEST_NOW)).Manageable).toBe('False/RegistrationFailed');
    expect(summary(computeConditions(hostFor({ status: registeredStatus('powering off before delete') }), TEST_NOW)).Progressing).toBe('True/PoweringOffBeforeDelete');
    expect(summary(computeConditions(hostFor({ status: registeredStatus('unmanaged') }), TEST_NOW)).Manageable).toBe('False/NotManaged');
  });

  it('says the BMC is not answering on Manageable (PowerFailure) while the provisioner reports it, then clears it', () => {
    const host = hostFor({ status: registeredStatus('provisioning') });
    host.status.conditions = computeConditions(host, TEST_NOW, { bmcProblem: { kind: 'not answering', detail: 'Redfish connection failed for node n1' } });
    expect(summary(host.status.conditions)).toMatchObject({ Manageable: 'False/PowerFailure', Progressing: 'True/Provisioning' });
    expect(host.status.conditions.find((c) => c.type === 'Manageable')?.message).toBe('the BMC is not answering: Redfish connection failed for node n1');
    expect(bmcProblemKindIn(host.status.conditions)).toBe('not answering');
    const later = computeConditions(host, TEST_NOW, {});
    expect(summary(later).Manageable).toBe('True/Manageable');
    expect(later.find((c) => c.type === 'Manageable')?.message).toBe('');
    expect(bmcProblemKindIn(later)).toBeUndefined();
  });

  it('says the BMC refuses the credentials when it answers with a refusal', () => {
    const host = hostFor({ status: registeredStatus('available') });
    const conditions = computeConditions(host, TEST_NOW, { bmcProblem: { kind: 'refuses credentials', detail: 'returned code 401' } });
    expect(summary(conditions).Manageable).toBe('False/PowerFailure');
    expect(conditions.find((c) => c.type === 'Manageable')?.message).toBe('the BMC refuses the credentials: returned code 401');
    expect(bmcProblemKindIn(conditions)).toBe('refuses credentials');
  });

  it('says nothing of the BMC for a detached host', () => {
    const host = hostFor({ status: registeredStatus('provisioned', { operationalStatus: 'detached' }) });
    expect(summary(computeConditions(host, TEST_NOW, { bmcProblem: { kind: 'not answering', detail: 'Redfish connection failed' } })).Manageable).toBe('True/Manageable');
  });

  it.each([
    ['OK', 'True/Healthy'],
    ['Warning', 'False/Warning'],
    ['Critical', 'False/CriticalError'],
    ['Degraded', 'Unknown/Unknown'],
  ])('maps Ironic health %s to Healthy %s', (health, expected) => {
    expect(summary(computeConditions(hostFor({ status: registeredStatus('provisioned') }), TEST_NOW, { health })).Healthy).toBe(expected);
  });

  it('keeps the last Healthy value while health is not reported, and starts Unknown', () => {
    const host = hostFor({ status: registeredStatus('provisioned') });
    expect(summary(computeConditions(host, TEST_NOW, { health: undefined })).Healthy).toBe('Unknown/Unknown');
    host.status.conditions = computeConditions(host, TEST_NOW, { health: 'Critical' });
    expect(summary(computeConditions(host, TEST_NOW, { health: undefined })).Healthy).toBe('False/CriticalError');
    expect(summary(computeConditions(host, TEST_NOW, { health: 'OK' })).Healthy).toBe('True/Healthy');
  });

  it('keeps the transition time when a condition does not change, even if set twice in one pass', () => {
    const host = hostFor({ status: registeredStatus('provisioned', { operationalStatus: 'error' }) });
    host.status.conditions = computeConditions(host, new Date('2026-05-01T10:00:00Z'));
    const later = computeConditions(host, TEST_NOW);
    expect(later.find((c) => c.type === 'Ready')?.lastTransitionTime).toBe('2026-05-01T10:00:00Z');
  });
});
