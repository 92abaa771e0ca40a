import type { BareMetalHost } from '../../operator/api/baremetalhost.ts';
import { BareMetalHostResource } from '../../operator/api/baremetalhost.ts';
import { Informer, KubeClient, createResourceClient, listerWatcherFor, loadKubeConfig } from '../../operator/runtime/index.ts';

export interface HostWatcherOptions {
  kubeconfig: string;
  namespace: string;
  print: (line: string) => void;
}

function describe(host: BareMetalHost): string {
  const status = host.status;
  const state = status?.provisioning.state || '(none)';
  const operational = status?.operationalStatus || '-';
  const error = status?.errorType ? ` error="${status.errorType}: ${status.errorMessage}"` : '';
  const powered = status?.poweredOn === undefined ? '' : ` poweredOn=${status.poweredOn}`;
  return `${state} [${operational}]${powered}${error}`;
}

/** Prints one line per host whenever its state, operational status, power or error changes. */
export async function watchHosts(options: HostWatcherOptions, signal: AbortSignal): Promise<void> {
  const client = createResourceClient<BareMetalHost>(new KubeClient(loadKubeConfig(options.kubeconfig)), BareMetalHostResource);
  const informer = new Informer<BareMetalHost>({
    name: 'BareMetalHost',
    listerWatcher: listerWatcherFor(client, { namespace: options.namespace }),
  });
  const last = new Map<string, string>();
  const show = (host: BareMetalHost) => {
    const key = `${host.metadata.namespace}/${host.metadata.name}`;
    const line = describe(host);
    if (last.get(key) === line) return;
    last.set(key, line);
    options.print(`${new Date().toISOString().slice(11, 19)}  ${key.padEnd(24)} ${line}`);
  };
  informer.addHandler({
    onAdd: show,
    onUpdate: (_old, host) => show(host),
    onDelete: (host) => options.print(`${new Date().toISOString().slice(11, 19)}  ${host.metadata.namespace}/${host.metadata.name} deleted`),
  });
  await informer.run(signal);
}
