import { join } from 'node:path';
import type { StackEnv } from './state.ts';

/**
 * The environment that points the operator (operator/main.ts) at a running stack,
 * shared by the dev command, the tests and the benchmark so they all run it alike.
 */
export function operatorEnvironment(env: StackEnv): Record<string, string> {
  return {
    KUBECONFIG: env.kubeconfig,
    IRONIC_ENDPOINT: env.ironicUrl,
    // Holds ironic/{username,password} when Ironic runs with http_basic; empty (noauth) otherwise.
    METAL3_AUTH_ROOT_DIR: join(env.stateDir, 'auth'),
    DEPLOY_KERNEL_URL: `${env.artifactsUrl}/ipa.kernel`,
    DEPLOY_RAMDISK_URL: `${env.artifactsUrl}/ipa.initramfs`,
    DEPLOY_ISO_URL: `${env.artifactsUrl}/ipa.iso`,
    // Free ports: several operators may run side by side in tests.
    METRICS_BIND_ADDRESS: '127.0.0.1:0',
    // Plain HTTP on loopback, for scrapes without a token (deployed, they are HTTPS behind the API server's review).
    METRICS_SECURE: 'false',
    HEALTH_PROBE_BIND_ADDRESS: '127.0.0.1:0',
    // No webhook configuration points at these processes; the webhook tests turn the server on.
    WEBHOOK_PORT: '0',
  };
}
