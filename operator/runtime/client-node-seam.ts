// The one place that reaches into @kubernetes/client-node's internals, for two things it offers
// no option for (checked on every start, so an upgrade that moves them fails loudly):
// - It builds a new undici dispatcher inside every applySecurityAuthentication call, i.e. for
//   every request and every watch, so nothing is kept alive and each request paid a TLS
//   handshake (about 5 ms, and most of the operator's memory churn). Here the KubeConfig hands
//   out one dispatcher per distinct TLS setup, shared by every request and watch. Credentials
//   (tokens, basic auth) are still applied per request as headers.
// - Its Watch ends a watch after 30 s without data, so every quiet watch reconnected twice a
//   minute. Here a watch with a server-side timeout waits for the server to end it.
import { createHash } from 'node:crypto';
import { Watch } from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';

type Dispatcher = unknown;
type CreateDispatcher = (cluster: unknown, agentOptions: Record<string, unknown>) => Dispatcher;
interface DispatcherFactory { createDispatcher: CreateDispatcher }

const SHARED = Symbol('metal3-ts shared dispatcher');

interface ConnectEmitter { on?(event: 'connect', listener: () => void): unknown }

/** What makes two dispatchers interchangeable: the server, the proxy and the TLS material. */
function setupKey(cluster: unknown, agentOptions: Record<string, unknown>): string {
  const { server, proxyUrl } = (cluster ?? {}) as { server?: string; proxyUrl?: string };
  const hash = createHash('sha256');
  hash.update(JSON.stringify([server ?? '', proxyUrl ?? '']));
  for (const name of ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername']) {
    const value = agentOptions[name];
    hash.update(`|${name}=`);
    if (value !== undefined) hash.update(Buffer.isBuffer(value) ? value : String(value));
  }
  return hash.digest('hex');
}

/**
 * Makes `kubeConfig` reuse one dispatcher (and so its kept-alive connections) per TLS setup.
 * Idempotent; `onConnect` (the connections-opened metric) is called for every new connection
 * of every dispatcher it hands out.
 */
export function shareDispatcher(kubeConfig: KubeConfig, options: { onConnect?: () => void } = {}): KubeConfig {
  const target = kubeConfig as unknown as DispatcherFactory & { [SHARED]?: Set<() => void> };
  if (target[SHARED]) {
    if (options.onConnect) target[SHARED].add(options.onConnect);
    return kubeConfig;
  }
  if (typeof target.createDispatcher !== 'function') {
    throw new Error('@kubernetes/client-node no longer has KubeConfig.createDispatcher: revisit operator/runtime/shared-dispatcher.ts');
  }
  const create = target.createDispatcher.bind(kubeConfig);
  const dispatchers = new Map<string, Dispatcher>();
  const listeners = new Set<() => void>(options.onConnect ? [options.onConnect] : []);
  target.createDispatcher = (cluster, agentOptions) => {
    const key = setupKey(cluster, agentOptions);
    if (!dispatchers.has(key)) {
      const dispatcher = create(cluster, agentOptions);
      // undici's Agent emits `connect` once per new connection (TCP, and TLS when https).
      (dispatcher as ConnectEmitter).on?.('connect', () => {
        for (const listener of listeners) listener();
      });
      dispatchers.set(key, dispatcher);
    }
    return dispatchers.get(key);
  };
  target[SHARED] = listeners;
  return kubeConfig;
}

/** A client-node Watch that gives up on a silent connection only after `inactivityTimeoutMs`. */
export function watchWithInactivityTimeout(kubeConfig: KubeConfig, inactivityTimeoutMs: number): Watch {
  const watch = new Watch(kubeConfig);
  const internals = watch as unknown as { requestTimeoutMs?: unknown };
  if (typeof internals.requestTimeoutMs !== 'number') {
    throw new Error('@kubernetes/client-node no longer has Watch.requestTimeoutMs: revisit operator/runtime/client-node-seam.ts');
  }
  internals.requestTimeoutMs = Math.max(internals.requestTimeoutMs, inactivityTimeoutMs);
  return watch;
}
