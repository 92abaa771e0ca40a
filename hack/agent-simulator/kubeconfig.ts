import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** Where and how to reach an API server: the current context of a kubeconfig. */
export interface KubeEndpoint {
  server: string;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  token?: string;
}

const kubeconfigSchema = z.object({
  'current-context': z.string().optional(),
  clusters: z.array(
    z.object({
      name: z.string(),
      cluster: z.object({
        server: z.url(),
        'certificate-authority': z.string().optional(),
        'certificate-authority-data': z.string().optional(),
      }),
    }),
  ),
  users: z
    .array(
      z.object({
        name: z.string(),
        user: z
          .object({
            'client-certificate': z.string().optional(),
            'client-certificate-data': z.string().optional(),
            'client-key': z.string().optional(),
            'client-key-data': z.string().optional(),
            token: z.string().optional(),
          })
          .nullable()
          .default({}),
      }),
    )
    .default([]),
  contexts: z.array(z.object({ name: z.string(), context: z.object({ cluster: z.string(), user: z.string().optional() }) })),
});

/** Reads the current context's server and credentials; file paths are relative to the kubeconfig, as in kubectl. */
export function loadKubeconfig(path: string): KubeEndpoint {
  const result = kubeconfigSchema.safeParse(parseYaml(readFileSync(path, 'utf8')));
  if (!result.success) throw new Error(`invalid kubeconfig ${path}:\n${z.prettifyError(result.error)}`);
  const config = result.data;
  const contextName = config['current-context'] ?? config.contexts[0]?.name;
  const context = config.contexts.find((entry) => entry.name === contextName)?.context;
  if (context === undefined) throw new Error(`kubeconfig ${path}: no context ${contextName ?? '(none)'}`);
  const cluster = config.clusters.find((entry) => entry.name === context.cluster)?.cluster;
  if (cluster === undefined) throw new Error(`kubeconfig ${path}: no cluster ${context.cluster}`);
  const user = config.users.find((entry) => entry.name === context.user)?.user ?? {};
  const base = dirname(path);
  const material = (data: string | undefined, file: string | undefined): Buffer | undefined => {
    if (data !== undefined) return Buffer.from(data, 'base64');
    if (file !== undefined) return readFileSync(isAbsolute(file) ? file : join(base, file));
    return undefined;
  };
  const endpoint: KubeEndpoint = { server: cluster.server.replace(/\/+$/, '') };
  const ca = material(cluster['certificate-authority-data'], cluster['certificate-authority']);
  const cert = material(user['client-certificate-data'], user['client-certificate']);
  const key = material(user['client-key-data'], user['client-key']);
  if (ca !== undefined) endpoint.ca = ca;
  if (cert !== undefined) endpoint.cert = cert;
  if (key !== undefined) endpoint.key = key;
  if (user.token !== undefined) endpoint.token = user.token;
  return endpoint;
}
