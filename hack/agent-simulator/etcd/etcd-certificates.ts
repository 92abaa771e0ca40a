import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The cluster's etcd CA, as Cluster API's kubeadm bootstrap data writes it to /etc/kubernetes/pki/etcd/ca.{crt,key}. */
export interface EtcdCa {
  cert: string;
  key: string;
}

/** Files of one member's certificates (kubeadm's etcd/server and a client for kubeadm's own etcd calls). */
export interface EtcdCertificateFiles {
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

/** What kubeadm issues from the etcd CA on a control plane node: the member's serving certificate and a client certificate. */
export async function issueEtcdCertificates(options: { dir: string; ca: EtcdCa; node: string }): Promise<EtcdCertificateFiles> {
  const path = (name: string) => join(options.dir, name);
  const files: EtcdCertificateFiles = {
    caCert: path('ca.crt'), serverCert: path('server.crt'), serverKey: path('server.key'),
    clientCert: path('client.crt'), clientKey: path('client.key'),
  };
  await writeFile(files.caCert, options.ca.cert, { mode: 0o600 });
  await writeFile(path('ca.key'), options.ca.key, { mode: 0o600 });
  await sign({ dir: options.dir, name: 'server', subject: `/CN=${options.node}`,
    extensions: `subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:${options.node}\nextendedKeyUsage=serverAuth,clientAuth`,
    cert: files.serverCert, key: files.serverKey });
  await sign({ dir: options.dir, name: 'client', subject: '/O=system:masters/CN=kube-apiserver-etcd-client',
    extensions: 'extendedKeyUsage=clientAuth', cert: files.clientCert, key: files.clientKey });
  return files;
}

async function sign(request: { dir: string; name: string; subject: string; extensions: string; cert: string; key: string }): Promise<void> {
  const csr = join(request.dir, `${request.name}.csr`);
  const extensions = join(request.dir, `${request.name}.ext`);
  await writeFile(extensions, `${request.extensions}\n`);
  await run('openssl', ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', request.subject,
    '-keyout', request.key, '-out', csr]);
  await run('openssl', ['x509', '-req', '-in', csr, '-CA', join(request.dir, 'ca.crt'), '-CAkey', join(request.dir, 'ca.key'),
    '-CAcreateserial', '-days', '365', '-extfile', extensions, '-out', request.cert]);
}
