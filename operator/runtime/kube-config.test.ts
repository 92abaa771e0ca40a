import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { KubeConfig, loadKubeConfig } from './kube-config.ts';

const base64 = (text: string) => Buffer.from(text).toString('base64');

const INLINE = `
apiVersion: v1
kind: Config
clusters:
- name: other
  cluster:
    server: https://10.0.0.1:6443
- name: local
  cluster:
    server: https://127.0.0.1:6443/
    certificate-authority-data: ${base64('CA PEM')}
    tls-server-name: kubernetes
users:
- name: admin
  user:
    client-certificate-data: ${base64('CERT PEM')}
    client-key-data: ${base64('KEY PEM')}
- name: robot
  user:
    token: secret-token
contexts:
- name: ctx
  context:
    cluster: local
    user: admin
    namespace: metal3
current-context: ctx
`;

const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
});

describe('KubeConfig', () => {
  it('reads the current context\'s cluster and user, decoding inline certificates', () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(INLINE);
    expect(kubeConfig.getCurrentCluster()).toEqual({ name: 'local', server: 'https://127.0.0.1:6443/', caData: 'CA PEM', tlsServerName: 'kubernetes' });
    expect(kubeConfig.getCurrentUser()).toEqual({ name: 'admin', certData: 'CERT PEM', keyData: 'KEY PEM' });
    expect(kubeConfig.getCurrentContext()?.namespace).toBe('metal3');
  });

  it('resolves certificate and token file paths against the kubeconfig\'s own folder, as kubectl does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-config-test-'));
    const path = join(dir, 'kubeconfig');
    writeFileSync(path, [
      'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", certificate-authority: pki/ca.crt, insecure-skip-tls-verify: true}}]',
      'users: [{name: u, user: {client-certificate: /abs/admin.crt, client-key: pki/admin.key, tokenFile: token}}]',
      'contexts: [{name: x, context: {cluster: c, user: u}}]',
      'current-context: x',
    ].join('\n'));
    const kubeConfig = loadKubeConfig(path);
    expect(kubeConfig.getCurrentCluster()).toMatchObject({ caFile: join(dir, 'pki/ca.crt'), skipTLSVerify: true });
    expect(kubeConfig.getCurrentUser()).toMatchObject({ certFile: '/abs/admin.crt', keyFile: join(dir, 'pki/admin.key'), tokenFile: join(dir, 'token') });
  });

  it('refuses exec and auth-provider users by name instead of sending no credentials', () => {
    const kubeConfig = new KubeConfig();
    expect(() => kubeConfig.loadFromString('users: [{name: cloud, user: {exec: {command: get-token}}}]', { source: '/home/me/.kube/config' }))
      .toThrow('/home/me/.kube/config: user "cloud" uses exec credentials, which this client does not support; use a token, a token file or a client certificate');
  });

  it('names the malformed field of a kubeconfig it cannot read', () => {
    const kubeConfig = new KubeConfig();
    expect(() => kubeConfig.loadFromString('clusters: {name: a}', { source: 'kc' })).toThrow(/^kc: clusters: .*array/);
    expect(() => kubeConfig.loadFromString('users: [{user: {token: t}}]', { source: 'kc' })).toThrow(/^kc: users\.0\.name: /);
    expect(() => kubeConfig.loadFromString('clusters: [{name: a, cluster: {server: 6443}}]', { source: 'kc' })).toThrow(/^kc: clusters\.0\.cluster\.server: /);
  });

  it('builds the in-cluster configuration from the ServiceAccount files and the service environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-config-sa-'));
    writeFileSync(join(dir, 'namespace'), 'baremetal-operator-system\n');
    process.env.KUBERNETES_SERVICE_HOST = 'fd00::1';
    process.env.KUBERNETES_SERVICE_PORT = '443';
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromCluster(dir);
    expect(kubeConfig.getCurrentCluster()).toEqual({ name: 'inCluster', server: 'https://[fd00::1]:443', caFile: join(dir, 'ca.crt') });
    expect(kubeConfig.getCurrentUser()).toEqual({ name: 'inCluster', tokenFile: join(dir, 'token') });
    expect(kubeConfig.getCurrentContext()?.namespace).toBe('baremetal-operator-system');
  });

  it('says when no cluster is configured', () => {
    process.env.KUBECONFIG = join(tmpdir(), 'does-not-exist-kubeconfig');
    process.env.HOME = mkdtempSync(join(tmpdir(), 'kube-config-home-'));
    delete process.env.KUBERNETES_SERVICE_HOST;
    expect(() => loadKubeConfig()).toThrow('no Kubernetes cluster configured (set KUBECONFIG or run in-cluster)');
  });
});
