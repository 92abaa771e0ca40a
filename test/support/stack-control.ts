import { restartComponent } from '../../hack/stack/stack.ts';
import { testStackDir } from './test-stack-dir.ts';

/** Stops and restarts the API server on the same port and etcd data: open watches break. */
export async function restartKubeApiServer(): Promise<void> {
  await restartComponent(testStackDir(), 'kube-apiserver');
}

/** Restarts Ironic with the same database (a crash and recovery, not a data loss). */
export async function restartIronic(): Promise<void> {
  await restartComponent(testStackDir(), 'ironic');
}
