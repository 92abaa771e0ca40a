import { connect } from 'node:tls';

export interface ServedCertificate {
  fingerprint256: string;
  commonName: string | undefined;
  notAfter: Date;
}

/** The certificate a TLS server at `host:port` presents (not verified: tests compare what two paths serve). */
export function servingCertificate(options: { host: string; port: number }): Promise<ServedCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: options.host, port: options.port, rejectUnauthorized: false }, () => {
      const certificate = socket.getPeerCertificate();
      socket.destroy();
      const commonName = certificate.subject?.CN;
      resolve({ fingerprint256: certificate.fingerprint256, commonName: Array.isArray(commonName) ? commonName[0] : commonName,
        notAfter: new Date(certificate.valid_to) });
    });
    socket.once('error', reject);
  });
}

/** `https://host:port` as connect options. */
export function tlsAddress(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || 443) };
}
