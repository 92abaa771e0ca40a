import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { restartComponent } from '../../../hack/stack/stack.ts';
import { envJsonFile } from '../../../hack/stack/state.ts';
import { Kubectl } from '../../support/kubectl.ts';
import type { StackEnv } from '../../support/stack-env.ts';
import { testStackDir } from '../../support/test-stack-dir.ts';

/** Read on its own so this works whether or not the stack's env schema knows `workload` yet. */
const workloadField = z.object({ workload: z.object({ kubeconfig: z.string() }).optional() });

/**
 * The workload cluster's kubeconfig: the stack's second API server (`env.workload`) when it has
 * one; a stack without it stands in with its main API server (Nodes are cluster-scoped core
 * objects, and nothing there runs controllers that would act on them).
 */
export function workloadKubeconfig(env: StackEnv): string {
  const { workload } = workloadField.parse(JSON.parse(readFileSync(envJsonFile(testStackDir()), 'utf8')));
  return workload?.kubeconfig ?? env.kubeconfig;
}

export function workloadKubectl(env: StackEnv): Kubectl {
  return new Kubectl({ kubectl: env.kubectl, kubeconfig: workloadKubeconfig(env) });
}

const simulatorConfigFile = () => join(testStackDir(), 'agent-simulator.json');

/**
 * Makes sure the stack's agent simulator registers Nodes with `kubeconfig`. A stack started
 * before hack/stack passed `workloadKubeconfig` gets its simulator restarted (same port, so sushy
 * still reaches it) with the option added; the returned function puts the old config back.
 */
export async function simulatorRegistersNodesIn(kubeconfig: string): Promise<() => Promise<void>> {
  const original = readFileSync(simulatorConfigFile(), 'utf8');
  const config = JSON.parse(original) as Record<string, unknown>;
  if (config.workloadKubeconfig === kubeconfig) return async () => {};
  writeFileSync(simulatorConfigFile(), `${JSON.stringify({ ...config, workloadKubeconfig: kubeconfig }, null, 2)}\n`, { mode: 0o600 });
  await restartComponent(testStackDir(), 'agent-simulator');
  return async () => {
    writeFileSync(simulatorConfigFile(), original, { mode: 0o600 });
    await restartComponent(testStackDir(), 'agent-simulator');
  };
}

export interface KubeNode {
  metadata: { name: string; labels?: Record<string, string>; resourceVersion: string };
  status?: {
    conditions?: { type: string; status: string }[];
    addresses?: { type: string; address: string }[];
    nodeInfo?: { systemUUID?: string; kubeletVersion?: string };
  };
}

/** The Node, or undefined when the API server says NotFound. */
export async function getNode(kubectl: Kubectl, name: string): Promise<KubeNode | undefined> {
  const result = await kubectl.run(['get', 'node', name, '-o', 'json']);
  if (result.code === 0) return JSON.parse(result.stdout) as KubeNode;
  if (result.stderr.includes('NotFound')) return undefined;
  throw new Error(`kubectl get node ${name}: ${result.stderr}`);
}
