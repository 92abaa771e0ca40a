import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse, stringify } from 'yaml';
import { buildPromtool } from '../../../hack/prometheus/index.ts';
import { run } from '../../../hack/stack/commands.ts';
import { renderKustomization, type Manifest } from '../../../hack/stack/kustomize.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { ensureNamespace } from '../../support/namespaces.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { dryRunApply, isCertManagerObject, isPrometheusOperatorObject } from './dry-run.ts';
import { exportedSeriesNames, metricNamesIn } from './exported-metrics.ts';

interface Rule { alert?: string; record?: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> }
interface PrometheusRule extends Manifest { spec: { groups: { name: string; rules: Rule[] }[] } }
interface ServiceMonitor extends Manifest { spec: { selector: { matchLabels: Record<string, string> }; endpoints: { port: string; path: string; scheme: string; bearerTokenFile?: string }[] } }
interface Service extends Manifest { spec: { selector: Record<string, string>; ports: { name: string; port: number }[] } }
interface AlertTest { alertname: string; exp_alerts: unknown[] }
interface PromTestFile { tests: { alert_rule_test?: AlertTest[] }[] }
interface Panel { type: string; title: string; targets?: { expr: string }[]; panels?: Panel[] }

const MONITORED = [
  // Metrics are HTTPS behind a token review (secure-metrics.test.ts).
  { directory: 'deploy/operator/with-monitoring', namespace: 'baremetal-operator-system', tests: 'operator.promtest.yaml', scheme: 'https',
    alerts: ['Metal3NoAvailableHosts', 'Metal3HostsInError', 'Metal3HostStuckInTransientState', 'Metal3IronicUnreachable', 'Metal3ReconcileErrorsRising'] },
  { directory: 'deploy/capm3/with-monitoring', namespace: 'capm3-system', tests: 'capm3.promtest.yaml', scheme: 'https',
    alerts: ['Capm3ReconcileErrorsRising', 'Capm3WorkQueueBacklog', 'Capm3NoAvailableHostsForTemplate'] },
  { directory: 'deploy/ipam/with-monitoring', namespace: 'metal3-ipam-system', tests: 'ipam.promtest.yaml', scheme: 'https',
    alerts: ['IpamPoolExhausted', 'IpamReconcileErrorsRising'] },
];
const DASHBOARD = join(repoRoot, 'deploy', 'operator', 'components', 'monitoring', 'grafana-dashboard.json');

const rulesOf = (objects: Manifest[]) => objects.find((object) => object.kind === 'PrometheusRule') as PrometheusRule;
const dashboardPanels = (): Panel[] =>
  (JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] }).panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
/** Grafana's range variables, as a Prometheus rule file can hold the expression. */
const asPlainPromQL = (expression: string) => expression.replaceAll('$__rate_interval', '5m').replaceAll('$__range', '1h');

/** deploy/'s monitoring: rendered and accepted, every alert unit-tested by promtool, every query on a real metric. */
describe('monitoring components in deploy/', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  const work = mkdtempSync(join(tmpdir(), 'monitoring-test-'));
  let promtool = '';
  let exported = new Set<string>();

  beforeAll(async () => {
    // Cached after the first build (the test stack's setup starts it); a cold build takes minutes.
    [promtool, exported] = await Promise.all([buildPromtool(), exportedSeriesNames()]);
  }, 1_500_000);

  afterAll(() => {
    kubectl.dispose();
    rmSync(work, { recursive: true, force: true });
  });

  it.each(MONITORED)('$directory renders; the API server accepts its objects, the ServiceMonitor (by structure) scrapes the metrics Service', async ({ directory, namespace, scheme }) => {
    const objects = await renderKustomization({ kubectl: env.kubectl, directory });
    await ensureNamespace(kubectl, namespace);
    const checkable = objects.filter((object) => !isPrometheusOperatorObject(object) && !isCertManagerObject(object));
    expect(await dryRunApply(kubectl, checkable)).toHaveLength(checkable.length);
    const monitor = objects.find((object) => object.kind === 'ServiceMonitor') as ServiceMonitor;
    expect(monitor.metadata.namespace).toBe(namespace);
    const scraped = objects.filter((object): object is Service => object.kind === 'Service' &&
      Object.entries(monitor.spec.selector.matchLabels).every(([key, value]) => object.metadata.labels?.[key] === value));
    expect(scraped.map((service) => service.metadata.name)).toEqual([expect.stringMatching(/-controller-manager-metrics-service$/)]);
    const [endpoint] = monitor.spec.endpoints;
    expect(scraped[0]?.spec.ports.map((port) => port.name)).toContain(endpoint?.port);
    expect(endpoint?.path).toBe('/metrics');
    // Over HTTPS, Prometheus shows its own ServiceAccount's token, which the controller has the API server review.
    expect({ scheme: endpoint?.scheme, token: endpoint?.bearerTokenFile }).toEqual(scheme === 'https'
      ? { scheme, token: '/var/run/secrets/kubernetes.io/serviceaccount/token' } : { scheme, token: undefined });
    expect(rulesOf(objects).metadata.namespace).toBe(namespace);
  });

  it.each(MONITORED)('$directory: promtool checks the rules and passes their unit tests; each alert has a firing and a silent case', async ({ directory, tests, alerts }) => {
    const rules = rulesOf(await renderKustomization({ kubectl: env.kubectl, directory }));
    expect(rules.spec.groups.flatMap((group) => group.rules.map((rule) => rule.alert))).toEqual(alerts);
    const dir = mkdtempSync(join(work, 'rules-'));
    writeFileSync(join(dir, 'rules.yaml'), stringify({ groups: rules.spec.groups }));
    const testFile = join(dir, tests);
    copyFileSync(join(repoRoot, 'test', 'integration', 'deploy', 'alerts', tests), testFile);
    const checked = await run(promtool, ['check', 'rules', join(dir, 'rules.yaml')], { component: 'promtool check rules' });
    expect(checked).toContain(`SUCCESS: ${alerts.length} rules found`);
    const tested = await run(promtool, ['test', 'rules', testFile], { component: 'promtool test rules' });
    expect(tested).toContain('SUCCESS');
    const cases = (parse(readFileSync(testFile, 'utf8')) as PromTestFile).tests.flatMap((test) => test.alert_rule_test ?? []);
    for (const alert of alerts) {
      expect(cases.some((test) => test.alertname === alert && test.exp_alerts.length > 0)).toBe(true);
      expect(cases.some((test) => test.alertname === alert && test.exp_alerts.length === 0)).toBe(true);
    }
  });

  it('a broken alert fails its promtool unit test (the tests can fail)', async () => {
    const rules = rulesOf(await renderKustomization({ kubectl: env.kubectl, directory: 'deploy/operator/with-monitoring' }));
    const broken = structuredClone(rules.spec.groups);
    const hostsInError = broken[0]?.rules.find((rule) => rule.alert === 'Metal3HostsInError') as Rule;
    hostsInError.expr = hostsInError.expr.replace('"error"', '"degraded"');
    const dir = mkdtempSync(join(work, 'broken-'));
    writeFileSync(join(dir, 'rules.yaml'), stringify({ groups: broken }));
    copyFileSync(join(repoRoot, 'test', 'integration', 'deploy', 'alerts', 'operator.promtest.yaml'), join(dir, 'tests.yaml'));
    await expect(run(promtool, ['test', 'rules', join(dir, 'tests.yaml')], { component: 'promtool test rules (broken)' }))
      .rejects.toThrow(/Metal3HostsInError/);
  });

  it('every query of the alerts and the Grafana dashboard selects a metric the processes export', async () => {
    expect(metricNamesIn('histogram_quantile(0.9, sum by (le) (rate(a_bucket{x="y"}[5m]))) / on (job) b unless c offset 5m')).toEqual(['a_bucket', 'b', 'c']);
    const expressions: { where: string; expr: string }[] = [];
    for (const { directory } of MONITORED) {
      for (const rule of rulesOf(await renderKustomization({ kubectl: env.kubectl, directory })).spec.groups.flatMap((group) => group.rules)) {
        expressions.push({ where: `${directory} ${rule.alert ?? rule.record}`, expr: rule.expr });
      }
    }
    for (const panel of dashboardPanels()) {
      for (const target of panel.targets ?? []) expressions.push({ where: `dashboard "${panel.title}"`, expr: asPlainPromQL(target.expr) });
    }
    const unknown = expressions.flatMap(({ where, expr }) => metricNamesIn(expr).filter((name) => !exported.has(name)).map((name) => `${where}: ${name}`));
    expect(unknown).toEqual([]);
    expect(expressions.every(({ expr }) => metricNamesIn(expr).length > 0)).toBe(true);
  });

  it('the Grafana dashboard parses, its queries are valid PromQL, and it shows hosts per state, provisioning times, Ironic latency, free hosts per template and IPPool usage', async () => {
    const panels = dashboardPanels();
    const queries = panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ title: panel.title, expr: target.expr })));
    // promtool parses each query as a recording rule.
    const dir = mkdtempSync(join(work, 'dashboard-'));
    const records = queries.map((query, index) => ({ record: `dashboard:query_${index}`, expr: asPlainPromQL(query.expr) }));
    writeFileSync(join(dir, 'dashboard-rules.yaml'), stringify({ groups: [{ name: 'dashboard', rules: records }] }));
    expect(await run(promtool, ['check', 'rules', join(dir, 'dashboard-rules.yaml')], { component: 'promtool check dashboard' }))
      .toContain(`SUCCESS: ${records.length} rules found`);
    const using = (metric: string) => [...new Set(queries.filter((query) => metricNamesIn(asPlainPromQL(query.expr)).includes(metric)).map((query) => query.title))];
    expect(using('metal3_hosts')).toContain('Hosts per provisioning state');
    const operations = { register: 'Registration', inspect: 'Inspection', provision: 'Provisioning', deprovision: 'Deprovisioning' };
    for (const [operation, title] of Object.entries(operations)) {
      expect(using(`metal3_operation_${operation}_duration_seconds_bucket`)).toEqual([`${title} time`]);
    }
    expect(using('ironic_client_request_duration_seconds_bucket')).toEqual(['Ironic request latency (p99 by route)']);
    expect(using('capm3_template_available_hosts')).toEqual(['Free hosts per Metal3MachineTemplate']);
    expect(using('ipam_ippool_allocated_addresses')).toEqual(['IPPool addresses in use']);
  });
});
