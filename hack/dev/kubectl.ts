import { run } from '../stack/commands.ts';
import type { StackEnv } from '../stack/state.ts';

/** kubectl against the stack's API server, as the admin user. */
export async function kubectl(env: StackEnv, args: string[], options: { input?: string } = {}): Promise<string> {
  return run(env.kubectl, ['--kubeconfig', env.kubeconfig, ...args], {
    component: 'kubectl',
    ...(options.input === undefined ? {} : { input: options.input }),
  });
}
