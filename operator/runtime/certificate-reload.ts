import { unwatchFile, watchFile } from 'node:fs';
import type { Server } from 'node:https';
import type { Logger } from './logger.ts';
import { readServingCertificate, servingCertificatePath } from './serving-certificate.ts';
import { secureContextOptions } from './tls-policy.ts';
import type { TlsPolicy } from './tls-policy.ts';

/**
 * Swaps in the pair from `certDir` whenever its tls.crt changes (a mounted Secret cert-manager
 * renews); a bad pair keeps the old one, said in the log. Returns the stop.
 */
export function reloadCertificate(server: Server, options: { certDir: string; policy?: TlsPolicy; name: string; logger: Logger; intervalMs?: number }): () => void {
  const certPath = servingCertificatePath(options.certDir);
  watchFile(certPath, { interval: options.intervalMs ?? 10_000 }, () => {
    try {
      server.setSecureContext({ ...readServingCertificate(options.certDir), ...secureContextOptions(options.policy) });
      options.logger.info('reloaded the serving certificate', { server: options.name, certDir: options.certDir });
    } catch (error) {
      options.logger.error('cannot reload the serving certificate; keeping the old one', { server: options.name, reason: (error as Error).message });
    }
  });
  return () => unwatchFile(certPath);
}
