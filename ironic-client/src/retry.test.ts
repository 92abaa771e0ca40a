import { describe, expect, it } from '@jest/globals';
import { errorFromResponse } from './error-body.ts';
import { IronicConnectionError } from './errors.ts';
import { backoffDelayMs, compileRetryPolicy, isRetryable } from './retry.ts';

const request = { method: 'GET', route: '/v1/nodes', url: 'http://ironic.test/v1/nodes' };
const fault = (faultstring: string) => ({ error_message: JSON.stringify({ faultstring }) });

describe('backoff', () => {
  it('doubles from the base delay, caps it, and jitters the upper half', () => {
    const low = compileRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 0 });
    const high = compileRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.999999 });
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelayMs(retry, low))).toEqual([50, 100, 200, 400, 500]);
    expect(backoffDelayMs(1, high)).toBeCloseTo(100, 3);
    expect(backoffDelayMs(9, high)).toBeCloseTo(1000, 2);
  });

  it('has bounded defaults and rejects nonsense', () => {
    expect(compileRetryPolicy()).toMatchObject({ maxAttempts: 4, baseDelayMs: 300, maxDelayMs: 3000 });
    expect(() => compileRetryPolicy({ maxAttempts: 0 })).toThrow(RangeError);
    expect(() => compileRetryPolicy({ maxAttempts: 1.5 })).toThrow(RangeError);
    expect(() => compileRetryPolicy({ baseDelayMs: -1 })).toThrow(RangeError);
  });
});

describe('isRetryable', () => {
  it('retries locks and 503s but not other failures', () => {
    expect(isRetryable(errorFromResponse(409, fault('Node x is locked by host y'), request), 'PUT')).toBe(true);
    expect(isRetryable(errorFromResponse(409, fault('A node with name x already exists.'), request), 'POST')).toBe(false);
    expect(isRetryable(errorFromResponse(503, fault('no free workers'), request), 'POST')).toBe(true);
    expect(isRetryable(errorFromResponse(400, fault('bad'), request), 'GET')).toBe(false);
    expect(isRetryable(errorFromResponse(404, fault('missing'), request), 'GET')).toBe(false);
    expect(isRetryable(new Error('bug'), 'GET')).toBe(false);
  });

  it('repeats a failed connection only when doing so cannot apply a change twice', () => {
    const connection = (code: string) => new IronicConnectionError('failed', code, request);
    expect(isRetryable(connection('ECONNREFUSED'), 'POST')).toBe(true);
    expect(isRetryable(connection('ECONNRESET'), 'GET')).toBe(true);
    expect(isRetryable(connection('ECONNRESET'), 'PUT')).toBe(true);
    expect(isRetryable(connection('ECONNRESET'), 'POST')).toBe(false);
    expect(isRetryable(connection('ETIMEDOUT'), 'PATCH')).toBe(false);
    expect(isRetryable(connection('CERT_HAS_EXPIRED'), 'GET')).toBe(false);
  });
});
