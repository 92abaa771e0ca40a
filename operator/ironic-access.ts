import { IronicApiError } from '../ironic-client/index.ts';
import { ProvisionerAccessDeniedError } from './controllers/baremetalhost/provisioner-not-ready.ts';
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
 * Watches every provisioner call for Ironic refusing the operator itself. While it does, the
 * `ironic` readiness check fails with the reason, the first refusal is logged at error level,
 * and calls fail with ProvisionerAccessDeniedError so each host shows it. A call that gets
 * through clears it.
 */
export class IronicAccessWatch {
  readonly #logger: Logger;
  #problem: string | undefined;

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
      delete: (o) => guard(() => provisioner.delete(o)),
      detach: (o) => guard(() => provisioner.detach(o)),
      // Read from what earlier calls fetched: no request to Ironic, nothing to watch.
      health: (o) => provisioner.health(o),
      bmcProblem: (o) => provisioner.bmcProblem(o),
    };
  }

  async #guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      this.#update(undefined);
      return result;
    } catch (error) {
      const problem = ironicAccessProblem(error);
      if (problem === undefined) throw error;
      this.#update(problem);
      throw new ProvisionerAccessDeniedError(problem, { cause: error });
    }
  }

  #update(problem: string | undefined): void {
    if (problem === this.#problem) return;
    if (problem === undefined) this.#logger.info('ironic accepts the operator again');
    else this.#logger.error('ironic refuses the operator; hosts cannot progress until this is fixed', { reason: problem });
    this.#problem = problem;
  }
}
