import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '../../../hack/stack/ports.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { installIpamCrds } from '../../support/ipam-crds.ts';
import { startIpamProcess } from '../../support/ipam-process.ts';
import { startOperatorProcess } from '../../support/operator-process.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';

interface Scrape { status: number; body: string; certificateNames: string }

/** GET /metrics over HTTPS, trusting the self-signed certificate (as the ServiceMonitor's insecureSkipVerify does). */
function scrape(port: number, token?: string, options: { maxVersion?: 'TLSv1.2' } = {}): Promise<Scrape> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/metrics', rejectUnauthorized: false, agent: false, ...options,
      headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      const certificateNames = (res.socket as TLSSocket).getPeerCertificate().subjectaltname ?? '';
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, certificateNames }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The operator, the provider and the IPAM serve metrics as BMO, CAPM3 and Metal3's IPAM deploy them: HTTPS, and only to
 * a bearer token the API server authenticates (TokenReview) whose user may get /metrics
 * (SubjectAccessReview), each process asking with its own ServiceAccount from deploy/. A scraper
 * bound to deploy/'s metrics-reader role gets the page; anyone else does not.
 */
describe('secure metrics with the ServiceAccounts and roles from deploy/', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  const suffix = randomBytes(4).toString('hex');
  const binding = `secure-metrics-scraper-${suffix}`;
  let namespace = '';
  const tokens = { scraper: '', stranger: '' };

  beforeAll(async () => {
    // The controllers' kinds, so each starts as installed (its caches fill) before it is scraped.
    await installProviderCrds(kubectl, env);
    await installIpamCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'secure-metrics');
    for (const account of ['scraper', 'stranger']) await kubectl.ok(['create', 'serviceaccount', account, '-n', namespace]);
    await kubectl.ok(['create', 'clusterrolebinding', binding, '--clusterrole=baremetal-operator-metrics-reader', `--serviceaccount=${namespace}:scraper`]);
    tokens.scraper = (await kubectl.ok(['create', 'token', 'scraper', '-n', namespace, '--duration=10m'])).trim();
    tokens.stranger = (await kubectl.ok(['create', 'token', 'stranger', '-n', namespace, '--duration=10m'])).trim();
  });

  afterAll(async () => {
    await kubectl.run(['delete', 'clusterrolebinding', binding, '--ignore-not-found']);
    if (namespace) await deleteNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  const servingSecurely = (logPath: string, port: number) => waitFor(async () => {
    let log: string;
    try {
      log = readFileSync(logPath, 'utf8');
    } catch {
      return undefined; // Not written yet.
    }
    return log.split('\n').some((line) => line.includes('"server":"metrics"') && line.includes(`127.0.0.1:${port}`) && line.includes('"secure":true')) ? true : undefined;
  }, { timeoutMs: 30_000, what: `metrics served securely on 127.0.0.1:${port}` });

  it.each([
    {
      who: 'operator',
      start: (port: number) => {
        const label = `secure-metrics-${suffix}`;
        // BMO's Deployment passes no metrics flag: HTTPS on --metrics-addr is the default (the test harness's plain HTTP undone).
        const operator = startOperatorProcess({ env, namespace, label, extraEnv: { PROVISIONER: 'fixture', METRICS_SECURE: 'true', METRICS_BIND_ADDRESS: `127.0.0.1:${port}` } });
        return { stop: operator.stop, logPath: join(env.stateDir, 'logs', `operator-${label}.log`) };
      },
      metric: 'controller_runtime_reconcile_total',
      takesTls12: true,
    },
    {
      who: 'provider',
      start: (port: number) => startProviderProcess({ env, namespace, label: `secure-metrics-${suffix}`, extraEnv: { METRICS_SECURE: 'true' },
        // CAPM3's Deployment arguments, the address moved to loopback, and Cluster API's TLS flag, which the diagnostics server follows too.
        extraArgs: [`--diagnostics-address=127.0.0.1:${port}`, '--insecure-diagnostics=false', '--tls-min-version=VersionTLS13'] }),
      metric: 'workqueue_adds_total',
      takesTls12: false,
    },
    {
      who: 'IPAM',
      // Metal3's IPAM Deployment arguments, the address moved to loopback.
      start: (port: number) => startIpamProcess({ env, namespace, label: `secure-metrics-${suffix}`, extraEnv: { METRICS_SECURE: 'true' },
        extraArgs: [`--diagnostics-address=127.0.0.1:${port}`] }),
      metric: 'workqueue_adds_total',
      takesTls12: true,
    },
  ])('the $who: 401 without a token, 403 for a user not allowed, the page for metrics-reader; never plain HTTP', async ({ start, metric, takesTls12 }) => {
    const port = await freePort();
    const controller = start(port);
    try {
      await servingSecurely(controller.logPath, port);
      const anonymous = await scrape(port);
      expect(anonymous.status).toBe(401);
      expect(anonymous.certificateNames).toContain('DNS:localhost');
      expect(anonymous.certificateNames).toContain('IP Address:127.0.0.1');
      expect((await scrape(port, tokens.stranger)).status).toBe(403);
      const allowed = await scrape(port, tokens.scraper);
      expect(allowed.status).toBe(200);
      expect(allowed.body).toContain(`# TYPE ${metric} counter`);
      // Plain HTTP gets no page at all (Node answers a TLS server's plain request with 400 or a reset).
      const plain = await fetch(`http://127.0.0.1:${port}/metrics`).then((response) => response.status, () => 'refused');
      expect(plain).not.toBe(200);
      // TLS 1.2 as the --tls-min-version says: BMO's default takes it, the provider told VersionTLS13 does not.
      const tls12 = await scrape(port, tokens.scraper, { maxVersion: 'TLSv1.2' }).then((answer) => answer.status, () => 'refused');
      expect(tls12).toBe(takesTls12 ? 200 : 'refused');
    } finally {
      await controller.stop();
    }
  });
});
