import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './commands.ts';

export interface ClusterCerts {
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
  serviceAccountKey: string;
  serviceAccountPub: string;
}

const component = 'certificates';

/** A throwaway CA, an API server serving cert for loopback, an admin client cert and SA keys. */
export async function generateClusterCerts(dir: string): Promise<ClusterCerts> {
  mkdirSync(dir, { recursive: true });
  const path = (name: string) => join(dir, name);
  const certs: ClusterCerts = {
    caCert: path('ca.crt'),
    caKey: path('ca.key'),
    servingCert: path('apiserver.crt'),
    servingKey: path('apiserver.key'),
    adminCert: path('admin.crt'),
    adminKey: path('admin.key'),
    serviceAccountKey: path('sa.key'),
    serviceAccountPub: path('sa.pub'),
  };
  const openssl = (args: string[]) => run('openssl', args, { component });
  await openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '3650', '-subj', '/CN=metal3-ts-ca',
    '-keyout', certs.caKey, '-out', certs.caCert]);
  await signed(dir, certs, { name: 'apiserver', subject: '/CN=kube-apiserver',
    extensions: 'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth',
    cert: certs.servingCert, key: certs.servingKey });
  await signed(dir, certs, { name: 'admin', subject: '/O=system:masters/CN=metal3-ts-admin',
    extensions: 'extendedKeyUsage=clientAuth', cert: certs.adminCert, key: certs.adminKey });
  await openssl(['genrsa', '-out', certs.serviceAccountKey, '2048']);
  await openssl(['rsa', '-in', certs.serviceAccountKey, '-pubout', '-out', certs.serviceAccountPub]);
  return certs;
}

export interface ServingCerts {
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
}

/**
 * A throwaway CA and one loopback serving certificate it signed: for a webhook server
 * the API server reaches by URL and trusts through the CA put in a caBundle.
 */
export async function generateServingCerts(options: {
  dir: string;
  commonName: string;
  /** File names of the serving pair, e.g. tls.crt / tls.key where controller-runtime looks. */
  certName?: string;
  keyName?: string;
}): Promise<ServingCerts> {
  const { dir } = options;
  mkdirSync(dir, { recursive: true });
  const certs: ServingCerts = {
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    servingCert: join(dir, options.certName ?? 'serving.crt'),
    servingKey: join(dir, options.keyName ?? 'serving.key'),
  };
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '3650', '-subj', `/CN=${options.commonName}-ca`,
    '-keyout', certs.caKey, '-out', certs.caCert], { component });
  await signed(dir, certs, { name: 'serving', subject: `/CN=${options.commonName}`,
    extensions: 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth',
    cert: certs.servingCert, key: certs.servingKey });
  return certs;
}

interface SignedCertRequest {
  name: string;
  subject: string;
  extensions: string;
  cert: string;
  key: string;
}

async function signed(dir: string, ca: Pick<ClusterCerts, 'caCert' | 'caKey'>, request: SignedCertRequest): Promise<void> {
  const csr = join(dir, `${request.name}.csr`);
  const ext = join(dir, `${request.name}.ext`);
  writeFileSync(ext, `${request.extensions}\n`);
  await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', request.subject, '-keyout', request.key, '-out', csr],
    { component });
  await run('openssl', ['x509', '-req', '-in', csr, '-CA', ca.caCert, '-CAkey', ca.caKey, '-CAcreateserial', '-days', '3650',
    '-extfile', ext, '-out', request.cert], { component });
}

/** A loopback serving certificate (127.0.0.1, localhost) signed by an existing CA, e.g. the stack's. */
export async function issueLoopbackServingCert(options: {
  dir: string;
  ca: { cert: string; key: string };
  name: string;
  commonName: string;
}): Promise<{ cert: string; key: string }> {
  mkdirSync(options.dir, { recursive: true });
  const issued = { cert: join(options.dir, `${options.name}.crt`), key: join(options.dir, `${options.name}.key`) };
  await signed(options.dir, { caCert: options.ca.cert, caKey: options.ca.key }, {
    name: options.name, subject: `/CN=${options.commonName}`,
    extensions: 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth',
    cert: issued.cert, key: issued.key,
  });
  return issued;
}
