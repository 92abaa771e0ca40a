import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { OciRegistry } from './oci-registry.ts';
import { createArtifactsServer } from './server.ts';

const args = z
  .object({
    root: z.string().min(1),
    port: z.coerce.number().int().min(1).max(65535),
    host: z.string().default('127.0.0.1'),
    'registry-config': z.string().optional(),
  })
  .parse(parseArgs({ options: { root: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, 'registry-config': { type: 'string' } } }).values);

/** The OCI registry's settings, credentials included, from a file outside the served root. */
const registryConfig = z.object({
  repository: z.string().min(1),
  tag: z.string().min(1),
  imageFile: z.string().min(1),
  imageTitle: z.string().min(1),
  credentials: z.object({ username: z.string().min(1), password: z.string().min(1) }),
});

const registry = args['registry-config'] === undefined
  ? undefined
  : new OciRegistry(registryConfig.parse(JSON.parse(readFileSync(args['registry-config'], 'utf8'))));
const server = createArtifactsServer({ ...args, registry });
server.listen(args.port, args.host, () => console.log(`artifacts: serving ${args.root} on http://${args.host}:${args.port}`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.close(() => process.exit(0)));
