import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateClusterCerts, type ClusterCerts } from './certs.ts';
import { run } from './commands.ts';
import { repoRoot } from './paths.ts';
import { freePorts } from './ports.ts';
import { startProcess, waitUntil, type ProcessSpec, type TrackedProcess } from './processes.ts';

export interface KubeBinaries {
  kubeApiServer: string;
  kubeControllerManager: string;
  kubectl: string;
  etcd: string;
}

/** The pinned Kubernetes release the stack's API servers run (`KUBE_VERSION` in hack/kube/versions.env), e.g. `v1.35.4`. */
export function kubernetesVersion(): string {
  const match = /^KUBE_VERSION=(v\d+\.\d+\.\d+)\s*$/m.exec(readFileSync(join(repoRoot, 'hack', 'kube', 'versions.env'), 'utf8'));
  if (!match) throw new Error('hack/kube/versions.env has no KUBE_VERSION=vX.Y.Z line');
  return match[1]!;
}

/** Builds (or reuses from the cache) the pinned kube-apiserver, kube-controller-manager, kubectl and etcd. */
export async function buildKubeBinaries(): Promise<KubeBinaries> {
  const out = (await run('bash', [join(repoRoot, 'hack', 'kube', 'build.sh')], { component: 'kube build' })).trim();
  const bin = out.split('\n').at(-1) ?? '';
  return {
    kubeApiServer: join(bin, 'kube-apiserver'), kubeControllerManager: join(bin, 'kube-controller-manager'),
    kubectl: join(bin, 'kubectl'), etcd: join(bin, 'etcd'),
  };
}

export interface KubeStarted {
  processes: { spec: ProcessSpec; process: TrackedProcess }[];
  kubeconfig: string;
  apiServerUrl: string;
  etcdUrl: string;
  kubectl: string;
  /** The stack's CA: it signed the API server's certificate and signs other loopback servers' (Ironic over TLS). */
  ca: { cert: string; key: string };
}

/** etcd and an API server with no controllers (envtest semantics), RBAC on, admin client cert. */
export async function startKube(stateDir: string, binaries: KubeBinaries): Promise<KubeStarted> {
  const dir = join(stateDir, 'kube');
  mkdirSync(dir, { recursive: true });
  const certs = await generateClusterCerts(join(dir, 'pki'));
  const [etcdClientPort, etcdPeerPort, apiPort] = (await freePorts(3)) as [number, number, number];
  const etcdUrl = `http://127.0.0.1:${etcdClientPort}`;
  const etcdSpec: ProcessSpec = {
    name: 'etcd',
    command: binaries.etcd,
    args: [
      '--name=default',
      `--data-dir=${join(dir, 'etcd-data')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-cluster=default=http://127.0.0.1:${etcdPeerPort}`,
      // A test store: durability is not worth the fsync latency here.
      '--unsafe-no-fsync',
    ],
    logPath: join(stateDir, 'logs', 'etcd.log'),
  };
  const etcd = startProcess(etcdSpec);
  await waitUntil(async () => (await fetch(`${etcdUrl}/health`)).ok, { what: 'etcd', timeoutMs: 30_000, process: etcd });

  const apiServerUrl = `https://127.0.0.1:${apiPort}`;
  const apiSpec = apiServerSpec({
    name: 'kube-apiserver', binary: binaries.kubeApiServer, etcdUrl, port: apiPort, certs, dir,
    logPath: join(stateDir, 'logs', 'kube-apiserver.log'),
  });
  const apiServer = startProcess(apiSpec);
  const kubeconfig = join(stateDir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigYaml({ server: apiServerUrl, ca: certs.caCert, cert: certs.adminCert, key: certs.adminKey }));
  await waitForApiServer({ kubectl: binaries.kubectl, kubeconfig, process: apiServer });
  return {
    processes: [
      { spec: etcdSpec, process: etcd },
      { spec: apiSpec, process: apiServer },
    ],
    kubeconfig,
    apiServerUrl,
    etcdUrl,
    kubectl: binaries.kubectl,
    ca: { cert: certs.caCert, key: certs.caKey },
  };
}

export interface ApiServerSpecOptions {
  /** Component name (and log file stem). */
  name: string;
  binary: string;
  etcdUrl: string;
  /** Keys under this etcd prefix; a second API server on the same etcd is a separate cluster. */
  etcdPrefix?: string;
  port: number;
  certs: ClusterCerts;
  /** Directory for the API server's own generated files. */
  dir: string;
  logPath: string;
}

/** An API server with no controllers (envtest semantics), RBAC on, serving on loopback. */
export function apiServerSpec(options: ApiServerSpecOptions): ProcessSpec {
  const { certs } = options;
  return {
    name: options.name,
    command: options.binary,
    args: [
      `--etcd-servers=${options.etcdUrl}`,
      ...(options.etcdPrefix ? [`--etcd-prefix=${options.etcdPrefix}`] : []),
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${options.port}`,
      `--tls-cert-file=${certs.servingCert}`,
      `--tls-private-key-file=${certs.servingKey}`,
      `--client-ca-file=${certs.caCert}`,
      `--service-account-key-file=${certs.serviceAccountPub}`,
      `--service-account-signing-key-file=${certs.serviceAccountKey}`,
      '--service-account-issuer=https://kubernetes.default.svc',
      '--authorization-mode=RBAC',
      '--service-cluster-ip-range=10.0.0.0/24',
      '--allow-privileged=true',
      '--disable-admission-plugins=ServiceAccount',
      // Port-forwards (KCP's etcd and certificate checks) dial a Node's InternalIP, which the
      // simulated kubelets report on loopback; never a DNS query for a Node's name.
      '--kubelet-preferred-address-types=InternalIP',
      `--cert-dir=${join(options.dir, 'cert-dir')}`,
    ],
    logPath: options.logPath,
  };
}

export async function waitForApiServer(options: { kubectl: string; kubeconfig: string; process?: TrackedProcess }): Promise<void> {
  await waitUntil(
    async () => {
      const body = await run(options.kubectl, ['--kubeconfig', options.kubeconfig, 'get', '--raw', '/readyz'], {
        component: 'kube-apiserver',
      });
      return body.trim() === 'ok';
    },
    { what: 'kube-apiserver /readyz', timeoutMs: 90_000, intervalMs: 500, ...(options.process ? { process: options.process } : {}) },
  );
}

function kubeconfigYaml(options: { server: string; ca: string; cert: string; key: string }): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: metal3-ts
  cluster:
    server: ${options.server}
    certificate-authority: ${options.ca}
users:
- name: admin
  user:
    client-certificate: ${options.cert}
    client-key: ${options.key}
contexts:
- name: metal3-ts
  context:
    cluster: metal3-ts
    user: admin
    namespace: default
current-context: metal3-ts
`;
}
