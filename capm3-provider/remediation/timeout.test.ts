import { describe, expect, it } from '@jest/globals';
import { metal3RemediationSchema } from '../api/index.ts';
import { retryLimitReached, timeoutLeftMs } from './timeout.ts';

const remediation = (spec: object, status?: object) =>
  metal3RemediationSchema.parse({ metadata: { name: 'm', namespace: 'ns' }, spec, ...(status ? { status } : {}) });
const START = Date.parse('2026-01-01T00:00:00Z');

describe('remediation timeout and retry limit', () => {
  it('counts the timeout from lastRemediated, 600 s by default', () => {
    expect(timeoutLeftMs(remediation({}), START)).toBeUndefined();
    const started = { lastRemediated: '2026-01-01T00:00:00Z' };
    expect(timeoutLeftMs(remediation({}, started), START + 1_000)).toBe(599_000);
    expect(timeoutLeftMs(remediation({ strategy: { type: 'Reboot', timeoutSeconds: 30 } }, started), START + 31_000)).toBe(0);
    // 0 is Go's unset (a v1beta1 object converted without a timeout): the default, not an instant timeout.
    expect(timeoutLeftMs(remediation({ strategy: { type: 'Reboot', timeoutSeconds: 0 } }, started), START + 1_000)).toBe(599_000);
  });

  it('reaches the retry limit (1 by default) after that many retries', () => {
    expect(retryLimitReached(remediation({}))).toBe(false);
    expect(retryLimitReached(remediation({}, { retryCount: 1 }))).toBe(true);
    expect(retryLimitReached(remediation({ strategy: { type: 'Reboot', retryLimit: 3 } }, { retryCount: 2 }))).toBe(false);
  });
});
