import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateClusterCerts } from './certs.ts';
import { apiServerSpec, waitForApiServer, type KubeBinaries } from './kube.ts';
import { freePort } from './ports.ts';
import { startProcess, type ProcessSpec, type TrackedProcess } from './processes.ts';

export interface WorkloadKubeStarted {
  spec: ProcessSpec;
  process: TrackedProcess;
  /** Self-contained (certificates inline): it is also what goes into a `<cluster>-kubeconfig` Secret. */
  kubeconfig: string;
  apiServerUrl: string;
}

/**
 * A second API server playing the workload cluster, where Nodes appear. It shares the
 * management cluster's etcd under another key prefix (no second etcd to run), with its own
 * CA and admin credentials, so nothing of one cluster is visible from the other.
 */
export async function startWorkloadKube(options: {
  stateDir: string;
  binaries: KubeBinaries;
  etcdUrl: string;
}): Promise<WorkloadKubeStarted> {
  const dir = join(options.stateDir, 'workload');
  mkdirSync(dir, { recursive: true });
  const certs = await generateClusterCerts(join(dir, 'pki'));
  const port = await freePort();
  const apiServerUrl = `https://127.0.0.1:${port}`;
  const spec = apiServerSpec({
    name: 'workload-apiserver', binary: options.binaries.kubeApiServer, etcdUrl: options.etcdUrl, etcdPrefix: '/workload',
    port, certs, dir, logPath: join(options.stateDir, 'logs', 'workload-apiserver.log'),
  });
  const started = startProcess(spec);
  const kubeconfig = join(options.stateDir, 'workload.kubeconfig');
  const base64 = (path: string) => readFileSync(path).toString('base64');
  writeFileSync(kubeconfig, inlineKubeconfigYaml({
    server: apiServerUrl, caData: base64(certs.caCert), certData: base64(certs.adminCert), keyData: base64(certs.adminKey),
  }), { mode: 0o600 });
  await waitForApiServer({ kubectl: options.binaries.kubectl, kubeconfig, process: started });
  return { spec, process: started, kubeconfig, apiServerUrl };
}

function inlineKubeconfigYaml(options: { server: string; caData: string; certData: string; keyData: string }): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: workload
  cluster:
    server: ${options.server}
    certificate-authority-data: ${options.caData}
users:
- name: workload-admin
  user:
    client-certificate-data: ${options.certData}
    client-key-data: ${options.keyData}
contexts:
- name: workload
  context:
    cluster: workload
    user: workload-admin
    namespace: default
current-context: workload
`;
}
