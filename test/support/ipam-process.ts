import { IPAM_IDENTITY } from '../../hack/stack/controller-identity.ts';
import { startControllerProcess, type ControllerProcess } from './controller-process.ts';
import type { StackEnv } from './stack-env.ts';

export interface IpamProcessOptions {
  env: Pick<StackEnv, 'stateDir'>;
  /** Only this namespace is served (`--namespace`), so test files do not disturb each other. */
  namespace: string;
  /** Distinguishes log files and leader identities. */
  label: string;
  extraEnv?: Record<string, string>;
  /** More command-line flags, e.g. those Metal3's IPAM Deployment passes. */
  extraArgs?: string[];
}

export type IpamProcess = ControllerProcess;

/**
 * The real IP address manager (`capm3-provider/ipam/main.ts`, `npm run ipam`) as its own process
 * against the test stack, with the token of its ServiceAccount from deploy/ipam (not admin).
 * The IPAM CRDs must be installed (installIpamCrds).
 */
export function startIpamProcess(options: IpamProcessOptions): IpamProcess {
  return startControllerProcess({
    env: options.env,
    identity: IPAM_IDENTITY,
    main: 'capm3-provider/ipam/main.ts',
    name: `ipam-${options.label}`,
    args: ['--namespace', options.namespace, ...(options.extraArgs ?? [])],
    vars: { ...options.extraEnv },
  });
}
