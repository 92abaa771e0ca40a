import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../../hack/stack/paths.ts';
import { METRICS_PAGE_SUFFIX } from './final-metrics.ts';
import type { Kubectl } from './kubectl.ts';
import type { StackEnv } from './stack-env.ts';

/** A value that must never be written anywhere we capture, and what to call it in a report. */
export interface SecretValue {
  label: string;
  value: string;
}

export interface SecretScanReport {
  files: number;
  /** Of those files, the metrics pages our managers served when they stopped (their labels). */
  metricsPages: number;
  bytes: number;
  /** Events and BareMetalHosts read from the API server. */
  objects: number;
  values: number;
  /** `where: what` for each hit; the value itself is never repeated. */
  found: string[];
}

/**
 * The credentials and user data the stack and the tests use: the stack's BMC and Ironic
 * credentials, and every `password:` / `userData:` string literal of 10 or more characters in
 * the test sources (so a new test's values are covered without a list to maintain).
 */
export function testSecretValues(env: StackEnv): SecretValue[] {
  const values: SecretValue[] = [];
  if (env.bmcCredentials) values.push({ label: 'the stack BMC password', value: env.bmcCredentials.password });
  values.push({ label: 'the IPMI BMC password', value: env.ipmiBmc.credentials.password });
  if (env.ironicAuth) values.push({ label: 'the Ironic basic-auth password', value: env.ironicAuth.password });
  if (env.ociRegistry) {
    const { username, password } = env.ociRegistry.credentials;
    values.push({ label: 'the OCI registry password', value: password });
    // As a basic Authorization header carries it, which Ironic passes to the ramdisk.
    values.push({ label: 'the OCI registry credentials in base64', value: Buffer.from(`${username}:${password}`).toString('base64') });
  }
  for (const file of filesUnder(join(repoRoot, 'test'), (name) => name.endsWith('.ts'))) {
    const text = readFileSync(file, 'utf8');
    // Shorter literals (`password`) are words every log carries, not values.
    for (const match of text.matchAll(/\b(password|userData)\s*:\s*'((?:[^'\\\n]|\\.){10,})'/g)) {
      const value = match[2]!.replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
      values.push({ label: `${match[1]} in ${relative(repoRoot, file)}`, value });
    }
  }
  const unique = new Map<string, SecretValue>();
  for (const value of values) if (!unique.has(value.value)) unique.set(value.value, value);
  return [...unique.values()];
}

function filesUnder(dir: string, wanted: (name: string) => boolean): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return [];
    if (stat.isDirectory()) return name === 'node_modules' ? [] : filesUnder(path, wanted);
    return stat.isFile() && wanted(name) ? [path] : [];
  });
}

/** The forms a value takes in a log line or an object: as is, JSON-escaped, base64 (a Secret's data). */
function needles(secret: SecretValue): { form: string; bytes: Buffer }[] {
  const forms = new Map<string, string>([
    [secret.value, 'as is'],
    [JSON.stringify(secret.value).slice(1, -1), 'JSON-escaped'],
    [Buffer.from(secret.value, 'utf8').toString('base64'), 'base64'],
  ]);
  return [...forms].map(([text, form]) => ({ form, bytes: Buffer.from(text, 'utf8') }));
}

function scanText(where: string, text: Buffer, secrets: readonly SecretValue[], found: string[]): void {
  for (const secret of secrets) {
    for (const needle of needles(secret)) {
      if (text.includes(needle.bytes)) found.push(`${where}: ${secret.label} (${needle.form})`);
    }
  }
}

/**
 * Looks for every secret value in every log file under `logDirs` (operator, provider and IPAM
 * processes, Ironic, sushy-tools, the agent simulator, the API servers) and, with a kubectl,
 * in all Events, BareMetalHosts and Metal3Machines on the API server (or one namespace's).
 */
export async function scanForSecrets(options: {
  logFiles: readonly string[];
  secrets: readonly SecretValue[];
  kubectl?: Kubectl;
  namespace?: string;
}): Promise<SecretScanReport> {
  const report: SecretScanReport = { files: 0, metricsPages: 0, bytes: 0, objects: 0, values: options.secrets.length, found: [] };
  for (const file of options.logFiles) {
    const text = readFileSync(file);
    report.files++;
    if (file.endsWith(METRICS_PAGE_SUFFIX)) report.metricsPages++;
    report.bytes += text.length;
    scanText(relative(repoRoot, file), text, options.secrets, report.found);
  }
  if (options.kubectl) {
    const scope = options.namespace ? ['-n', options.namespace] : ['--all-namespaces'];
    for (const kind of ['events', 'baremetalhosts.metal3.io', 'metal3machines.infrastructure.cluster.x-k8s.io']) {
      const list = await options.kubectl.json<{ items: { metadata?: { namespace?: string; name?: string } }[] }>(['get', kind, ...scope]);
      for (const item of list.items) {
        report.objects++;
        scanText(`${kind} ${item.metadata?.namespace}/${item.metadata?.name}`, Buffer.from(JSON.stringify(item), 'utf8'), options.secrets, report.found);
      }
    }
  }
  return report;
}

/** Every log the stack and the test support write under a state directory, and the metrics pages kept beside them. */
export function stackLogFiles(stateDir: string): string[] {
  return filesUnder(join(stateDir, 'logs'), (name) => name.endsWith('.log') || name.endsWith(METRICS_PAGE_SUFFIX));
}

export function describeScan(report: SecretScanReport): string {
  const megabytes = (report.bytes / 1024 / 1024).toFixed(1);
  return `secret scan: ${report.values} values in ${report.files} files (${megabytes} MB; ${report.metricsPages} of them metrics pages) and ${report.objects} API objects: found ${report.found.length}`;
}
