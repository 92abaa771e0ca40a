import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeconfig } from './kubeconfig.ts';

function withKubeconfig(files: Record<string, string>, run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-test-'));
  try {
    for (const [name, contents] of Object.entries(files)) writeFileSync(join(dir, name), contents);
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('loadKubeconfig', () => {
  it('reads the current context with files relative to the kubeconfig (the stack\'s layout)', () => {
    withKubeconfig({ 'ca.crt': 'CA', 'admin.crt': 'CERT', 'admin.key': 'KEY', kubeconfig: `apiVersion: v1
kind: Config
clusters:
- name: other
  cluster: { server: 'https://127.0.0.1:1' }
- name: main
  cluster:
    server: https://127.0.0.1:6443/
    certificate-authority: ca.crt
users:
- name: admin
  user: { client-certificate: admin.crt, client-key: admin.key }
contexts:
- { name: a, context: { cluster: other } }
- { name: b, context: { cluster: main, user: admin } }
current-context: b
` }, (dir) => {
      const endpoint = loadKubeconfig(join(dir, 'kubeconfig'));
      expect(endpoint.server).toBe('https://127.0.0.1:6443');
      expect(endpoint.ca?.toString()).toBe('CA');
      expect(endpoint.cert?.toString()).toBe('CERT');
      expect(endpoint.key?.toString()).toBe('KEY');
      expect(endpoint.token).toBeUndefined();
    });
  });

  it('reads inline certificates and tokens', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    withKubeconfig({ kubeconfig: `clusters:
- name: w
  cluster: { server: 'https://127.0.0.1:7443', certificate-authority-data: ${b64('CA')} }
users:
- name: u
  user: { client-certificate-data: ${b64('CERT')}, client-key-data: ${b64('KEY')}, token: abc }
contexts:
- { name: w, context: { cluster: w, user: u } }
` }, (dir) => {
      expect(loadKubeconfig(join(dir, 'kubeconfig'))).toEqual({
        server: 'https://127.0.0.1:7443', ca: Buffer.from('CA'), cert: Buffer.from('CERT'), key: Buffer.from('KEY'), token: 'abc',
      });
    });
  });

  it('names what is wrong', () => {
    withKubeconfig({ kubeconfig: 'clusters: []\ncontexts: []\n', bad: 'clusters: 3\n' }, (dir) => {
      expect(() => loadKubeconfig(join(dir, 'kubeconfig'))).toThrow('no context (none)');
      expect(() => loadKubeconfig(join(dir, 'bad'))).toThrow(/invalid kubeconfig .*bad/);
    });
  });
});
