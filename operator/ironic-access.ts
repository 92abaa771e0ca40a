import { IronicApiError, IronicConnectionError } from '../ironic-client/index.ts';
import { ProvisionerAccessDeniedError, ProvisionerNotReadyError, ProvisionerUnreachableError } from './controllers/baremetalhost/provisioner-not-ready.ts';
import { TransientProvisionerError } from './provisioner/result.ts';
import type { Provisioner } from './provisioner/provisioner.ts';
import type { Logger } from './runtime/logger.ts';

// Node's codes for a server certificate that does not check out against the trusted CAs.
const TLS_VERIFICATION_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_SIGNATURE_FAILURE',
]);

/** Why Ironic will not serve the operator, if the error or one of its causes says so; undefined for anything else. */
export function ironicAccessProblem(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++, current = current.cause) {
    if (current instanceof IronicApiError && (current.status === 401 || current.status === 403)) {
      return `Ironic refused the operator's credentials (METAL3_AUTH_ROOT_DIR/ironic): ${current.message}`;
    }
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && TLS_VERIFICATION_CODES.has(code)) {
      return `Ironic's TLS certificate is not trusted (${code}; IRONIC_CACERT_FILE names the CA to trust): ${current.message}`;
    }
  }
  return undefined;
}

/**
 * That Ironic did not answer at all, if the error or one of its causes says so, worded the same
 * for every call (no node or path in it) so a host's repeated events fold into one.
 */
export function ironicUnreachableProblem(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++, current = current.cause) {
    if (current instanceof IronicConnectionError) {
      const where = current.request ? ` at ${new URL(current.request.url).origin}` : '';
      return `Ironic${where} is unreachable (${current.code ?? current.message})`;
    }
  }
  return undefined;
}

/**
 * Watches every provisioner call for Ironic refusing the operator itself, or not answering. While it does, the
 * `ironic` readiness check fails with the reason, the first refusal is logged at error level,
 * and calls fail with ProvisionerAccessDeniedError so each host shows it. A call that gets
 * through clears it. While Ironic does not answer, calls fail with ProvisionerUnreachableError
 * (logged once when it starts and once when it ends); readiness is untouched, as an outage
 * clears by itself.
 */
export class IronicAccessWatch {
  readonly #logger: Logger;
  #problem: string | undefined;
  #unreachable: string | undefined;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** For `/readyz`: throws the reason while Ironic refuses the operator. */
  readonly check = (): void => {
    if (this.#problem !== undefined) throw new Error(this.#problem);
  };

  /** An object literal, so the compiler names any Provisioner method this forgets to pass on. */
  wrap(provisioner: Provisioner): Provisioner {
    const guard = this.#guard.bind(this);
    return {
      register: (o) => guard(() => provisioner.register(o)),
      inspect: (o) => guard(() => provisioner.inspect(o)),
      prepare: (o) => guard(() => provisioner.prepare(o)),
      service: (o) => guard(() => provisioner.service(o)),
      provision: (o) => guard(() => provisioner.provision(o)),
      adopt: (o) => guard(() => provisioner.adopt(o)),
      deprovision: (o) => guard(() => provisioner.deprovision(o)),
      powerOn: (o) => guard(() => provisioner.powerOn(o)),
      powerOff: (o) => guard(() => provisioner.powerOff(o)),
      hardwareState: (o) => guard(() => provisioner.hardwareState(o)),
      firmwareSettings: (o) => guard(() => provisioner.firmwareSettings(o)),
      firmwareComponents: (o) => guard(() => provisioner.firmwareComponents(o)),
      dataImageStatus: (o) => guard(() => provisioner.dataImageStatus(o)),
      attachDataImage: (o) => guard(() => provisioner.attachDataImage(o)),
      detachDataImage: (o) => guard(() => provisioner.detachDataImage(o)),
      addEventSubscription: (o) => guard(() => provisioner.addEventSubscription(o)),
      removeEventSubscription: (o) => guard(() => provisioner.removeEventSubscription(o)),
      nodeDigests: () => guard(() => provisioner.nodeDigests()),
      delete: (o) => guard(() => provisioner.delete(o)),
      detach: (o) => guard(() => provisioner.detach(o)),
      // Read from what earlier calls fetched: no request to Ironic, nothing to watch.
      health: (o) => provisioner.health(o),
      bmcProblem: (o) => provisioner.bmcProblem(o),
      firmwareRefreshes: (o) => provisioner.firmwareRefreshes(o),
      lastNodeRead: (nodeId) => provisioner.lastNodeRead(nodeId),
    };
  }

  async #guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      this.#update(undefined);
      this.#updateReachability(undefined);
      return result;
    } catch (error) {
      const problem = ironicAccessProblem(error);
      if (problem !== undefined) {
        this.#update(problem);
        throw new ProvisionerAccessDeniedError(problem, { cause: error });
      }
      // Not connected yet at all is BMO's "not ready", with its own delay and metric.
      const unreachable = error instanceof ProvisionerNotReadyError ? undefined : ironicUnreachableProblem(error);
      if (unreachable === undefined) throw error;
      this.#updateReachability(unreachable);
      const retryAfterMs = error instanceof TransientProvisionerError ? error.retryAfterMs : undefined;
      throw new ProvisionerUnreachableError(`${unreachable}: the host keeps its state and retries without recording an error`, {
        cause: error,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      });
    }
  }

  #updateReachability(problem: string | undefined): void {
    if (problem === this.#unreachable) return;
    if (problem === undefined) this.#logger.info('ironic answers again');
    else this.#logger.warn('ironic does not answer; hosts wait without recording errors', { reason: problem });
    this.#unreachable = problem;
  }

  #update(problem: string | undefined): void {
    if (problem === this.#problem) return;
    if (problem === undefined) this.#logger.info('ironic accepts the operator again');
    else this.#logger.error('ironic refuses the operator; hosts cannot progress until this is fixed', { reason: problem });
    this.#problem = problem;
  }
}
