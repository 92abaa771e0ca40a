import type { KubeObject, ResourceType } from '../../operator/runtime/index.ts';
import { Informer, KubeClient, createResourceClient, listerWatcherFor, loadKubeConfig } from '../../operator/runtime/index.ts';

export interface WatchedKind<T extends KubeObject = KubeObject> {
  resource: ResourceType;
  /** Short kind shown before the name, e.g. `bmh`. */
  label: string;
  /** One line of what matters; a line is printed only when this text changes. */
  describe(object: T): string;
}

export interface ObjectWatcherOptions {
  kubeconfig: string;
  namespace: string;
  kinds: WatchedKind[];
  print: (line: string) => void;
}

const time = () => new Date().toISOString().slice(11, 19);

/** Prints one line per object of the given kinds whenever what `describe` shows changes, until `signal` aborts. */
export async function watchObjects(options: ObjectWatcherOptions, signal: AbortSignal): Promise<void> {
  const transport = new KubeClient(loadKubeConfig(options.kubeconfig));
  await Promise.all(options.kinds.map((kind) => {
    const informer = new Informer<KubeObject>({
      name: kind.resource.kind,
      listerWatcher: listerWatcherFor(createResourceClient(transport, kind.resource), { namespace: options.namespace }),
    });
    const last = new Map<string, string>();
    const show = (object: KubeObject) => {
      const name = `${kind.label}/${object.metadata.name}`;
      const line = kind.describe(object);
      if (last.get(name) === line) return;
      last.set(name, line);
      options.print(`${time()}  ${name.padEnd(40)} ${line}`);
    };
    informer.addHandler({
      onAdd: show,
      onUpdate: (_old, object) => show(object),
      onDelete: (object) => options.print(`${time()}  ${`${kind.label}/${object.metadata.name}`.padEnd(40)} deleted`),
    });
    return informer.run(signal);
  }));
}
