import { describe, it, expect } from '@jest/globals';
import { HealthChecks } from './health.ts';
import { parseBindAddress } from './http-server.ts';

describe('HealthChecks', () => {
  it('answers ok when every check passes', async () => {
    const checks = new HealthChecks('readyz');
    checks.add('ping', () => {});
    checks.add('informers', async () => {});
    expect(await checks.run()).toEqual({ healthy: true, body: 'ok' });
  });

  it('lists every check with the failing reasons when one fails', async () => {
    const checks = new HealthChecks('readyz');
    checks.add('ping', () => {});
    checks.add('informers', () => {
      throw new Error('BareMetalHost informer not synced');
    });
    expect(await checks.run()).toEqual({
      healthy: false,
      body: '[+]ping ok\n[-]informers failed: BareMetalHost informer not synced\nreadyz check failed\n',
    });
  });

  it('fails a check that hangs', async () => {
    const checks = new HealthChecks('healthz');
    checks.add('stuck', () => new Promise(() => {}));
    const report = await checks.run({ timeoutMs: 10 });
    expect(report.healthy).toBe(false);
    expect(report.body).toContain('[-]stuck failed: timed out after 10 ms');
  });

  it('refuses duplicate names', () => {
    const checks = new HealthChecks('healthz');
    checks.add('ping', () => {});
    expect(() => checks.add('ping', () => {})).toThrow(/already registered/);
  });
});

describe('parseBindAddress', () => {
  it('accepts the controller-runtime forms', () => {
    expect(parseBindAddress(':8080')).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(parseBindAddress('127.0.0.1:8081')).toEqual({ host: '127.0.0.1', port: 8081 });
    expect(parseBindAddress('[::1]:9000')).toEqual({ host: '::1', port: 9000 });
    expect(parseBindAddress('0')).toBeNull();
  });

  it('rejects anything else', () => {
    expect(() => parseBindAddress('8080')).toThrow(/host:port/);
    expect(() => parseBindAddress(':99999')).toThrow(/out of range/);
    expect(() => parseBindAddress('localhost')).toThrow();
  });
});
