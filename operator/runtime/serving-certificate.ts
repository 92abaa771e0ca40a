import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ServingCertificate {
  cert: Buffer;
  key: Buffer;
}

/** controller-runtime's layout: `tls.crt` and `tls.key` in the cert dir (a mounted Secret). */
export function readServingCertificate(certDir: string): ServingCertificate {
  const read = (name: string) => {
    const path = join(certDir, name);
    try {
      return readFileSync(path);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new Error(`cannot read the serving certificate file ${path}: ${reason}`, { cause: error });
    }
  };
  return { cert: read('tls.crt'), key: read('tls.key') };
}

export function servingCertificatePath(certDir: string): string {
  return join(certDir, 'tls.crt');
}
