// Our own kubeconfig reader. @kubernetes/client-node's KubeConfig imports the package's
// generated API index (every API group: ~80 MiB of RSS and ~0.5 s of CPU at start-up), and the
// runtime needs only the server, the TLS material and a token or client certificate.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

export interface KubeCluster {
  name: string;
  server: string;
  /** PEM, already decoded from `certificate-authority-data`. */
  caData?: string;
  caFile?: string;
  skipTLSVerify?: boolean;
  tlsServerName?: string;
}

export interface KubeUser {
  name: string;
  /** PEM, already decoded from `client-certificate-data` / `client-key-data`. */
  certData?: string;
  certFile?: string;
  keyData?: string;
  keyFile?: string;
  token?: string;
  /** Re-read while running: projected ServiceAccount tokens rotate. */
  tokenFile?: string;
  username?: string;
  password?: string;
}

export interface KubeContext {
  name: string;
  cluster: string;
  user: string;
  namespace?: string;
}

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const IN_CLUSTER_NAME = 'inCluster';

type YamlRecord = Record<string, unknown>;

function record(value: unknown): YamlRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as YamlRecord) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function decoded(value: unknown): string | undefined {
  const encoded = text(value);
  return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
}

/** Paths in a kubeconfig file are relative to that file, as kubectl reads them. */
function resolvedPath(value: unknown, baseDir: string | undefined): string | undefined {
  const path = text(value);
  if (path === undefined || baseDir === undefined || isAbsolute(path)) return path;
  return join(baseDir, path);
}

function named(entries: unknown, kind: string): Array<{ name: string; body: YamlRecord }> {
  if (entries === undefined || entries === null) return [];
  if (!Array.isArray(entries)) throw new Error(`kubeconfig: "${kind}" must be a list`);
  return entries.map((entry, index) => {
    const name = text(record(entry).name);
    if (!name) throw new Error(`kubeconfig: ${kind}[${index}] has no name`);
    return { name, body: record(record(entry)[kind.slice(0, -1)]) };
  });
}

/** The subset of a kubeconfig the runtime uses; exec and auth-provider credentials are refused by name. */
export class KubeConfig {
  clusters: KubeCluster[] = [];
  users: KubeUser[] = [];
  contexts: KubeContext[] = [];
  currentContext = '';

  loadFromFile(path: string): void {
    this.loadFromString(readFileSync(path, 'utf8'), { baseDir: dirname(path), source: path });
  }

  loadFromString(yamlText: string, options: { baseDir?: string; source?: string } = {}): void {
    const document = record(parse(yamlText));
    const source = options.source ?? 'kubeconfig';
    this.clusters = named(document.clusters, 'clusters').map(({ name, body }) => ({
      name,
      server: text(body.server) ?? '',
      ...optional('caData', decoded(body['certificate-authority-data'])),
      ...optional('caFile', resolvedPath(body['certificate-authority'], options.baseDir)),
      ...optional('skipTLSVerify', body['insecure-skip-tls-verify'] === true ? true : undefined),
      ...optional('tlsServerName', text(body['tls-server-name'])),
    }));
    this.users = named(document.users, 'users').map(({ name, body }) => {
      for (const unsupported of ['exec', 'auth-provider']) {
        if (body[unsupported] !== undefined) {
          throw new Error(`${source}: user "${name}" uses ${unsupported} credentials, which this client does not support; use a token, a token file or a client certificate`);
        }
      }
      return {
        name,
        ...optional('certData', decoded(body['client-certificate-data'])),
        ...optional('certFile', resolvedPath(body['client-certificate'], options.baseDir)),
        ...optional('keyData', decoded(body['client-key-data'])),
        ...optional('keyFile', resolvedPath(body['client-key'], options.baseDir)),
        ...optional('token', text(body.token)),
        ...optional('tokenFile', resolvedPath(body.tokenFile, options.baseDir)),
        ...optional('username', text(body.username)),
        ...optional('password', text(body.password)),
      };
    });
    this.contexts = named(document.contexts, 'contexts').map(({ name, body }) => ({
      name,
      cluster: text(body.cluster) ?? '',
      user: text(body.user) ?? '',
      ...optional('namespace', text(body.namespace)),
    }));
    this.currentContext = text(document['current-context']) ?? '';
  }

  /** The ServiceAccount a pod runs as, as client-go's rest.InClusterConfig reads it. */
  loadFromCluster(serviceAccountDir = SERVICE_ACCOUNT_DIR): void {
    const host = process.env.KUBERNETES_SERVICE_HOST;
    const port = process.env.KUBERNETES_SERVICE_PORT;
    if (!host || !port) throw new Error('not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set');
    const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
    this.clusters = [{ name: IN_CLUSTER_NAME, server, caFile: join(serviceAccountDir, 'ca.crt') }];
    this.users = [{ name: IN_CLUSTER_NAME, tokenFile: join(serviceAccountDir, 'token') }];
    const namespaceFile = join(serviceAccountDir, 'namespace');
    const namespace = existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() : undefined;
    this.contexts = [{ name: IN_CLUSTER_NAME, cluster: IN_CLUSTER_NAME, user: IN_CLUSTER_NAME, ...optional('namespace', namespace) }];
    this.currentContext = IN_CLUSTER_NAME;
  }

  /** KUBECONFIG (its first existing file), then ~/.kube/config, then in-cluster. */
  loadFromDefault(): void {
    const fromEnv = (process.env.KUBECONFIG ?? '').split(delimiter).filter(Boolean).find((path) => existsSync(path));
    if (fromEnv) return this.loadFromFile(fromEnv);
    const home = join(homedir(), '.kube', 'config');
    if (existsSync(home)) return this.loadFromFile(home);
    if (process.env.KUBERNETES_SERVICE_HOST) return this.loadFromCluster();
  }

  getCurrentContext(): KubeContext | undefined {
    return this.contexts.find((context) => context.name === this.currentContext);
  }

  getCurrentCluster(): KubeCluster | undefined {
    const context = this.getCurrentContext();
    return context && this.clusters.find((cluster) => cluster.name === context.cluster);
  }

  getCurrentUser(): KubeUser | undefined {
    const context = this.getCurrentContext();
    return context && this.users.find((user) => user.name === context.user);
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** A kubeconfig from `path`, or the default search (KUBECONFIG, ~/.kube/config, in-cluster). */
export function loadKubeConfig(path?: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (path) kubeConfig.loadFromFile(path);
  else kubeConfig.loadFromDefault();
  if (!kubeConfig.getCurrentCluster()) throw new Error('no Kubernetes cluster configured (set KUBECONFIG or run in-cluster)');
  return kubeConfig;
}
