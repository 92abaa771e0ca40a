import { PROVIDER_IDENTITY } from '../../hack/stack/controller-identity.ts';
import { startControllerProcess, type ControllerProcess } from './controller-process.ts';
import type { StackEnv } from './stack-env.ts';

export interface ProviderProcessOptions {
  env: Pick<StackEnv, 'stateDir'>;
  /** Only this namespace is reconciled (`--namespace`), so test files do not disturb each other. */
  namespace: string;
  /** Distinguishes log files and leader identities. */
  label: string;
  extraEnv?: Record<string, string>;
  /** More command-line flags, e.g. those CAPM3's own Deployment passes. */
  extraArgs?: string[];
}

export type ProviderProcess = ControllerProcess;

/**
 * The real provider (`capm3-provider/main.ts`) as its own process against the test stack, with
 * the token of its ServiceAccount from deploy/ (not admin): a missing permission fails the test.
 */
export function startProviderProcess(options: ProviderProcessOptions): ProviderProcess {
  return startControllerProcess({
    env: options.env,
    identity: PROVIDER_IDENTITY,
    main: 'capm3-provider/main.ts',
    name: `capm3-${options.label}`,
    args: ['--namespace', options.namespace, ...(options.extraArgs ?? [])],
    // Tests wait for conditions; poll what is not ready yet quickly. No webhook configuration
    // points at these processes; the webhook tests turn the server on (prepareProviderWebhook).
    vars: { CAPM3_REQUEUE_AFTER: '2s', CAPM3_WEBHOOK_PORT: '0', ...options.extraEnv },
  });
}
