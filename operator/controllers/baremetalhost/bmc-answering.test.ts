import { describe, expect, it } from '@jest/globals';
import { bmcAnsweringChange } from './bmc-answering.ts';
import { computeConditions } from './conditions.ts';
import { TEST_NOW, hostFor, registeredStatus } from './testing/hosts.ts';

describe('bmcAnsweringChange', () => {
  const host = hostFor({ status: registeredStatus('provisioning') });
  const answering = computeConditions(host, TEST_NOW);
  const down = { kind: 'not answering', detail: 'Redfish connection failed' } as const;
  const notAnswering = computeConditions(host, TEST_NOW, { bmcProblem: down });

  it('is one Warning when the BMC stops answering, and nothing while it stays down', () => {
    expect(bmcAnsweringChange(answering, down)).toEqual({
      type: 'Warning', reason: 'BMCNotAnswering', message: 'the BMC is not answering: Redfish connection failed',
    });
    expect(bmcAnsweringChange(notAnswering, down)).toBeUndefined();
  });

  it('names a refusal of the credentials as such', () => {
    expect(bmcAnsweringChange(answering, { kind: 'refuses credentials', detail: 'returned code 401' })).toEqual({
      type: 'Warning', reason: 'BMCRefusesCredentials', message: 'the BMC refuses the credentials: returned code 401',
    });
  });

  it('is a new Warning when the problem turns into the other kind', () => {
    const refusal = { kind: 'refuses credentials', detail: 'returned code 401' } as const;
    expect(bmcAnsweringChange(notAnswering, refusal)).toMatchObject({ type: 'Warning', reason: 'BMCRefusesCredentials' });
    const refusing = computeConditions(host, TEST_NOW, { bmcProblem: refusal });
    expect(bmcAnsweringChange(refusing, refusal)).toBeUndefined();
    expect(bmcAnsweringChange(refusing, down)).toMatchObject({ type: 'Warning', reason: 'BMCNotAnswering' });
  });

  it('names the refusal that ended when the BMC accepts the credentials again', () => {
    const refusing = computeConditions(host, TEST_NOW, { bmcProblem: { kind: 'refuses credentials', detail: 'returned code 401' } });
    expect(bmcAnsweringChange(refusing, undefined)).toEqual({ type: 'Normal', reason: 'BMCAnswering', message: 'the BMC accepts the credentials again' });
  });

  it('is one Normal event when it answers again, and nothing while all is well', () => {
    expect(bmcAnsweringChange(notAnswering, undefined)).toEqual({ type: 'Normal', reason: 'BMCAnswering', message: 'the BMC is answering again' });
    expect(bmcAnsweringChange(answering, undefined)).toBeUndefined();
    expect(bmcAnsweringChange(undefined, undefined)).toBeUndefined();
  });
});
