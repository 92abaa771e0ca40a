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

const METHODS = [
  'register', 'inspect', 'prepare', 'provision', 'adopt', 'deprovision', 'powerOn', 'powerOff', 'hardwareState', 'delete', 'detach',
] as const satisfies readonly (keyof Provisioner)[];

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

  wrap(provisioner: Provisioner): Provisioner {
    const wrapped = {} as Record<string, unknown>;
    for (const method of METHODS) {
      const call = provisioner[method].bind(provisioner) as (options: never) => Promise<unknown>;
      wrapped[method] = async (options: never) => {
        try {
          const result = await call(options);
          this.#update(undefined);
          return result;
        } catch (error) {
          const problem = ironicAccessProblem(error);
          if (problem === undefined) throw error;
          this.#update(problem);
          throw new ProvisionerAccessDeniedError(problem, { cause: error });
        }
      };
    }
    return wrapped as unknown as Provisioner;
  }

  #update(problem: string | undefined): void {
    if (problem === this.#problem) return;
    if (problem === undefined) this.#logger.info('ironic accepts the operator again');
    else this.#logger.error('ironic refuses the operator; hosts cannot progress until this is fixed', { reason: problem });
    this.#problem = problem;
  }
}
