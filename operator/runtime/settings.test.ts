import { describe, it, expect } from '@jest/globals';
import { compileOptions } from './runtime-options.ts';
import { ConfigError, compileSettings, settingSchemas } from './settings.ts';

const defaults = { leaderElectionId: 'toy-leader' };

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('compileOptions', () => {
  it('fills every runtime setting with controller-runtime defaults', () => {
    const options = compileOptions({ env: {}, argv: [] }, defaults);
    expect(options).toEqual({
      metricsBindAddress: { host: '0.0.0.0', port: 8080 },
      metricsSecure: false,
      metricsCertPath: undefined,
      healthProbeBindAddress: { host: '0.0.0.0', port: 8081 },
      leaderElect: false,
      leaderElectionId: 'toy-leader',
      leaderElectionNamespace: undefined,
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      gracefulShutdownTimeoutMs: 30_000,
      syncPeriodMs: 36_000_000,
      watchNamespace: undefined,
      logLevel: 'info',
      podName: undefined,
      podNamespace: undefined,
      kubeApiQps: undefined,
      kubeApiBurst: 30,
      kubeconfig: undefined,
    });
  });

  it('takes client-go\'s QPS and burst under BMO\'s and CAPM3\'s flags, and refuses a QPS that is not above 0', () => {
    expect(compileOptions({ argv: ['--kube-api-qps=20.5', '--kube-api-burst', '40'] }, defaults)).toMatchObject({ kubeApiQps: 20.5, kubeApiBurst: 40 });
    expect(() => compileOptions({ argv: ['--kube-api-qps=0'] }, defaults)).toThrow('invalid setting KUBE_API_QPS (--kube-api-qps): expected a number above 0 (got "0")');
  });

  it('reads the environment, and flags override it', () => {
    const options = compileOptions(
      {
        env: { METRICS_BIND_ADDRESS: '127.0.0.1:9090', LEADER_ELECT: 'true', LOG_LEVEL: 'warn' },
        argv: ['--metrics-bind-address=0', '--log-level', 'debug', '--leader-elect-lease-duration=30s'],
      },
      defaults,
    );
    expect(options.metricsBindAddress).toBeNull();
    expect(options.leaderElect).toBe(true);
    expect(options.logLevel).toBe('debug');
    expect(options.leaseDurationMs).toBe(30_000);
  });

  it('takes -name as --name, as Go\'s flag packages do (BMO\'s -namespace, CAPM3\'s -v=4)', () => {
    expect(compileOptions({ argv: ['-leader-elect', '-log-level=debug', '-watch-namespace', 'hosts'] }, defaults))
      .toMatchObject({ leaderElect: true, logLevel: 'debug', watchNamespace: 'hosts' });
  });

  it('treats a bare boolean flag as true', () => {
    expect(compileOptions({ argv: ['--leader-elect'] }, defaults).leaderElect).toBe(true);
    expect(compileOptions({ argv: ['--leader-elect=false'] }, defaults).leaderElect).toBe(false);
  });

  it('takes true and false in any case, and refuses 1 or yes, which BMO reads as false', () => {
    expect(compileOptions({ env: { LEADER_ELECT: 'TRUE' } }, defaults).leaderElect).toBe(true);
    expect(compileOptions({ env: { LEADER_ELECT: 'False' } }, defaults).leaderElect).toBe(false);
    for (const value of ['1', 'yes', '0', 'no']) {
      expect(problemsOf(() => compileOptions({ env: { LEADER_ELECT: value } }, defaults))).toEqual([
        `invalid setting LEADER_ELECT (--leader-elect): expected true or false (BMO reads any other value as false) (got "${value}")`,
      ]);
    }
  });

  it('names the variable and the flag of a bad setting', () => {
    expect(problemsOf(() => compileOptions({ env: { METRICS_BIND_ADDRESS: '8080' } }, defaults))).toEqual([
      'invalid setting METRICS_BIND_ADDRESS (--metrics-bind-address): "8080" is not host:port, :port or 0 (got "8080")',
    ]);
  });

  it('reports every problem at once', () => {
    const problems = problemsOf(() =>
      compileOptions({ env: { LOG_LEVEL: 'loud', SYNC_PERIOD: '10' }, argv: ['--leader-elect=maybe', '--nope', 'stray'] }, defaults),
    );
    expect(problems).toEqual([
      'unknown flag --nope (see --help)',
      'unexpected argument "stray"',
      'invalid setting LEADER_ELECT (--leader-elect): expected true or false (BMO reads any other value as false) (got "maybe")',
      expect.stringMatching(/^invalid setting SYNC_PERIOD \(--sync-period\): invalid duration "10"/),
      'invalid setting LOG_LEVEL (--log-level): expected one of error, warn, info, debug (got "loud")',
    ]);
  });

  it('rejects leader election timings that could let two leaders overlap', () => {
    expect(problemsOf(() => compileOptions({ argv: ['--leader-elect-renew-deadline=20s'] }, defaults))).toEqual([
      'invalid setting LEADER_ELECTION_RENEW_DEADLINE (--leader-elect-renew-deadline): must be shorter than the lease duration',
    ]);
  });

  it('compiles a program\'s own settings alongside', () => {
    const options = compileOptions({ env: { IRONIC_ENDPOINT: 'http://ironic:6385' } }, defaults, {
      ironicEndpoint: { env: 'IRONIC_ENDPOINT', flag: '--ironic-endpoint', description: 'Ironic URL', schema: settingSchemas.string() },
      maxConcurrentReconciles: {
        env: 'BMO_CONCURRENCY',
        flag: '--max-concurrent-reconciles',
        description: 'workers',
        default: '3',
        schema: settingSchemas.integer({ min: 1 }),
      },
    });
    expect(options.ironicEndpoint).toBe('http://ironic:6385');
    expect(options.maxConcurrentReconciles).toBe(3);
    expect(options.leaderElectionId).toBe('toy-leader');
  });

  it('answers --help with the usage text', () => {
    try {
      compileOptions({ argv: ['--help'] }, defaults);
      throw new Error('expected help');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).helpRequested).toBe(true);
      expect((error as ConfigError).message).toContain('--metrics-bind-address / METRICS_BIND_ADDRESS (default ":8080")');
    }
  });
});

describe('compileSettings', () => {
  it('asks for required settings that are missing, and for values of non-boolean flags', () => {
    const spec = { endpoint: { env: 'ENDPOINT', flag: '--endpoint', description: 'x', schema: settingSchemas.string() } };
    expect(problemsOf(() => compileSettings(spec, { env: {} }))).toEqual(['invalid setting ENDPOINT (--endpoint): required']);
    expect(problemsOf(() => compileSettings(spec, { argv: ['--endpoint'] }))).toEqual([
      'flag --endpoint needs a value',
      'invalid setting ENDPOINT (--endpoint): required',
    ]);
    expect(compileSettings(spec, { env: { ENDPOINT: '' }, argv: ['--endpoint', 'x'] }).endpoint).toBe('x');
  });

  it('checks integer ranges', () => {
    const spec = { n: { env: 'N', flag: '--n', description: 'n', default: '1', schema: settingSchemas.integer({ min: 1, max: 5 }) } };
    expect(compileSettings(spec, {}).n).toBe(1);
    expect(problemsOf(() => compileSettings(spec, { env: { N: '9' } }))).toEqual(['invalid setting N (--n): must be between 1 and 5 (got "9")']);
    expect(problemsOf(() => compileSettings(spec, { env: { N: '1.5' } }))).toEqual(['invalid setting N (--n): expected an integer (got "1.5")']);
  });

  it('reads a setting under its aliases too, its own name winning, and lists the aliases in the usage', () => {
    const spec = { port: { env: 'PORT', flag: '--port', description: 'p', default: '1', schema: settingSchemas.integer(), aliases: { flags: ['--old-port'], env: ['OLD_PORT'] } } };
    expect(compileSettings(spec, { argv: ['--old-port=7'] }).port).toBe(7);
    expect(compileSettings(spec, { argv: ['--old-port', '8'] }).port).toBe(8);
    expect(compileSettings(spec, { env: { OLD_PORT: '9' } }).port).toBe(9);
    expect(compileSettings(spec, { env: { OLD_PORT: '9', PORT: '10' } }).port).toBe(10);
    expect(problemsOf(() => compileSettings(spec, { argv: ['--help'] }))[0]).toContain('(also --old-port, OLD_PORT)');
  });

  it('reads whole seconds or durations', () => {
    const spec = { d: { env: 'D', flag: '--d', description: 'd', default: '15', schema: settingSchemas.secondsOrDuration({ min: 1000 }) } };
    expect(compileSettings(spec, {}).d).toBe(15_000);
    expect(compileSettings(spec, { env: { D: '1m30s' } }).d).toBe(90_000);
    expect(problemsOf(() => compileSettings(spec, { env: { D: '0' } }))).toEqual(['invalid setting D (--d): must be at least 1000 ms (got "0")']);
  });
});
