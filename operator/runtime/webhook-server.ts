import { createServer } from 'node:https';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SecureContextOptions } from 'node:tls';
import { sleep, systemClock } from './clock.ts';
import type { Logger } from './logger.ts';
import type { Runnable } from './manager.ts';
import { admissionReviewSchema } from './admission-review.ts';
import type { AdmissionRequest, AdmissionResponseBody } from './admission-review.ts';
import { conversionReviewSchema } from './conversion-review.ts';
import type { ConversionHandler } from './conversion-review.ts';
import { reloadCertificate } from './certificate-reload.ts';
import { readServingCertificate } from './serving-certificate.ts';
import { secureContextOptions } from './tls-policy.ts';
import type { TlsPolicy } from './tls-policy.ts';

export type AdmissionHandler = (request: AdmissionRequest) => AdmissionResponseBody;
/** A handler that waits for something first (e.g. a look-up through the API server). */
export type AsyncAdmissionHandler = (request: AdmissionRequest) => Promise<AdmissionResponseBody>;

export interface WebhookServerOptions extends TlsPolicy {
  /** 0 would pick any port; the operator never starts the server with --webhook-port=0. */
  port: number;
  /** Listen address; every interface when unset, as controller-runtime. */
  host?: string;
  certDir: string;
  /** By URL path, e.g. `/validate-metal3-io-v1alpha1-baremetalhost`. */
  handlers: Record<string, AdmissionHandler | AsyncAdmissionHandler>;
  /** CRD conversion webhooks by URL path, e.g. `/convert`. */
  conversionHandlers?: Record<string, ConversionHandler>;
  logger: Logger;
  /** How soon a server that could not start tries again. */
  retryIntervalMs?: number;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * The admission webhook server: HTTPS with the serving certificate from the cert dir (reloaded
 * when it changes, as cert-manager renews it), on every replica, leader or not. When it cannot
 * start (no certificate, port taken) the operator keeps reconciling: the reason is logged, `/readyz`
 * reports it under `webhook`, and the server tries again.
 */
export class WebhookServer implements Runnable {
  readonly needLeaderElection = false;
  readonly #options: WebhookServerOptions;
  #problem = 'not started yet';
  #address: AddressInfo | undefined;

  constructor(options: WebhookServerOptions) {
    this.#options = options;
  }

  /** A readyz check: fails, saying why, while the server is not serving. */
  readonly readyCheck = (): void => {
    if (this.#address === undefined) throw new Error(`webhook server not serving: ${this.#problem}`);
  };

  /** Where it listens, once serving. */
  get address(): AddressInfo | undefined {
    return this.#address;
  }

  async start(signal: AbortSignal): Promise<void> {
    const { logger } = this.#options;
    let lastLogged = '';
    while (!signal.aborted) {
      try {
        await this.#serve(signal);
        return;
      } catch (error) {
        this.#problem = (error as Error).message;
        if (this.#problem !== lastLogged) {
          logger.error('webhook server cannot start; the API server refuses changes to the kinds it validates until it serves (retrying)', {
            reason: this.#problem, port: this.#options.port, certDir: this.#options.certDir,
          });
          lastLogged = this.#problem;
        }
        await sleep(systemClock, this.#options.retryIntervalMs ?? 10_000, signal);
      }
    }
  }

  /** Versions, ciphers and groups, the same for the first context and each reload. */
  #tlsSettings(): SecureContextOptions {
    return secureContextOptions(this.#options);
  }

  async #serve(signal: AbortSignal): Promise<void> {
    const { certDir, logger } = this.#options;
    const server = createServer({ ...readServingCertificate(certDir), ...this.#tlsSettings() },
      (request, response) => void this.#handle(request, response));
    await this.#listen(server);
    this.#address = server.address() as AddressInfo;
    logger.info('serving webhooks', { address: `${this.#address.address}:${this.#address.port}`, paths: [...Object.keys(this.#options.handlers), ...Object.keys(this.#options.conversionHandlers ?? {})] });
    const stopReloading = reloadCertificate(server, { certDir, policy: this.#options, name: 'webhook', logger });
    try {
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      stopReloading();
      this.#address = undefined;
      this.#problem = 'stopped';
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  }

  #listen(server: Server): Promise<void> {
    const { port, host } = this.#options;
    return new Promise((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        reject(new Error(`cannot listen on ${host ?? ''}:${port}: ${error.code === 'EADDRINUSE' ? 'address already in use' : error.message}`));
      });
      server.listen(port, host, () => resolve());
    });
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const path = new URL(request.url ?? '/', 'https://localhost').pathname;
    const admission = this.#options.handlers[path];
    const conversion = this.#options.conversionHandlers?.[path];
    if (admission === undefined && conversion === undefined) return reply(404, { message: `no webhook at ${path}` });
    if (request.method !== 'POST') return reply(405, { message: 'only POST is served' });
    try {
      const body: unknown = JSON.parse(await readBody(request));
      if (admission !== undefined) {
        const review = admissionReviewSchema.safeParse(body);
        if (!review.success) return reply(400, { message: `not an admission.k8s.io/v1 AdmissionReview: ${review.error.issues[0]?.message ?? ''}` });
        return reply(200, await admission(review.data.request));
      }
      const review = conversionReviewSchema.safeParse(body);
      if (!review.success) return reply(400, { message: `not an apiextensions.k8s.io/v1 ConversionReview: ${review.error.issues[0]?.message ?? ''}` });
      reply(200, (conversion as ConversionHandler)(review.data.request));
    } catch (error) {
      this.#options.logger.error('webhook request failed', { path, error });
      reply(400, { message: (error as Error).message });
    }
  }
}
