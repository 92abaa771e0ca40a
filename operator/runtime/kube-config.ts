// Our own kubeconfig reader. @kubernetes/client-node's KubeConfig imports the package's
// generated API index (every API group: ~80 MiB of RSS and ~0.5 s of CPU at start-up), and the
// runtime needs only the server, the TLS material and a token or client certificate.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';

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

// The fields read, checked at the boundary; anything else in the file is left alone.
const text = z.string().optional();
const clusterBody = z.looseObject({
  server: text,
  'certificate-authority-data': text,
  'certificate-authority': text,
  'insecure-skip-tls-verify': z.boolean().optional(),
  'tls-server-name': text,
});
const userBody = z.looseObject({
  'client-certificate-data': text,
  'client-certificate': text,
  'client-key-data': text,
  'client-key': text,
  token: text,
  tokenFile: text,
  username: text,
  password: text,
  exec: z.unknown().optional(),
  'auth-provider': z.unknown().optional(),
});
const contextBody = z.looseObject({ cluster: text, user: text, namespace: text });
const listOf = <T extends z.ZodType>(entry: T) => z.array(entry).nullish().transform((entries) => entries ?? []);
const entryName = z.string().min(1);
const kubeConfigDocument = z.looseObject({
  clusters: listOf(z.looseObject({ name: entryName, cluster: clusterBody.nullish() })),
  users: listOf(z.looseObject({ name: entryName, user: userBody.nullish() })),
  contexts: listOf(z.looseObject({ name: entryName, context: contextBody.nullish() })),
  'current-context': z.string().nullish(),
});

/** Empty strings count as absent, as client-go reads them. */
const given = (value: string | undefined): string | undefined => (value === '' ? undefined : value);

function decoded(value: string | undefined): string | undefined {
  const encoded = given(value);
  return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
}

/** Paths in a kubeconfig file are relative to that file, as kubectl reads them. */
function resolvedPath(value: string | undefined, baseDir: string | undefined): string | undefined {
  const path = given(value);
  if (path === undefined || baseDir === undefined || isAbsolute(path)) return path;
  return join(baseDir, path);
}

function parseDocument(yamlText: string, source: string): z.infer<typeof kubeConfigDocument> {
  const result = kubeConfigDocument.safeParse(parse(yamlText) ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new Error(`${source}: ${issue.path.join('.') || 'the document'}: ${issue.message}`);
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
    const source = options.source ?? 'kubeconfig';
    const document = parseDocument(yamlText, source);
    this.clusters = document.clusters.map(({ name, cluster }) => {
      const body = cluster ?? {};
      return {
        name,
        server: given(body.server) ?? '',
        ...optional('caData', decoded(body['certificate-authority-data'])),
        ...optional('caFile', resolvedPath(body['certificate-authority'], options.baseDir)),
        ...optional('skipTLSVerify', body['insecure-skip-tls-verify'] === true ? true : undefined),
        ...optional('tlsServerName', given(body['tls-server-name'])),
      };
    });
    this.users = document.users.map(({ name, user }) => {
      const body = user ?? {};
      for (const unsupported of ['exec', 'auth-provider'] as const) {
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
        ...optional('token', given(body.token)),
        ...optional('tokenFile', resolvedPath(body.tokenFile, options.baseDir)),
        ...optional('username', given(body.username)),
        ...optional('password', given(body.password)),
      };
    });
    this.contexts = document.contexts.map(({ name, context }) => {
      const body = context ?? {};
      return { name, cluster: given(body.cluster) ?? '', user: given(body.user) ?? '', ...optional('namespace', given(body.namespace)) };
    });
    this.currentContext = document['current-context'] ?? '';
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
