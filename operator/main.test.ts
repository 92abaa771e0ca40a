import { describe, expect, it } from '@jest/globals';
import { runOperator } from './main.ts';

describe('operator start-up', () => {
  it('refuses to start on bad settings, naming them', async () => {
    const errors: string[] = [];
    const code = await runOperator({ argv: ['--provisioning-limit=none'], env: {}, stderr: (text) => errors.push(text) });
    expect(code).toBe(2);
    expect(errors.join('')).toContain('PROVISIONING_LIMIT (--provisioning-limit): expected an integer');
  });

  it('prints usage for --help', async () => {
    const out: string[] = [];
    expect(await runOperator({ argv: ['--help'], env: {}, stdout: (text) => out.push(text) })).toBe(0);
    const usage = out.join('');
    expect(usage).toContain('--ironic-endpoint / IRONIC_ENDPOINT');
    // BMO's names, with the earlier ones listed as aliases.
    for (const name of ['--metrics-addr', '--health-addr', '--enable-leader-election', '--namespace / WATCH_NAMESPACE', '--lease-duration-seconds / LEASE_DURATION_SECONDS',
      '--renew-deadline-seconds / RENEW_DEADLINE_SECONDS', '--retry-period-seconds / RETRY_PERIOD_SECONDS', '--max-provisioning-retries / MAX_PROVISIONING_RETRIES',
      '--webhook-port', '--webhook-cert-dir', '--tls-min-version', '--controller-concurrency / BMO_CONCURRENCY', '(also --leader-elect)']) {
      expect(usage).toContain(name);
    }
  });
});
