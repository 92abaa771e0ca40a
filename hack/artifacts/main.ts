import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createArtifactsServer } from './server.ts';

const args = z
  .object({ root: z.string().min(1), port: z.coerce.number().int().min(1).max(65535), host: z.string().default('127.0.0.1') })
  .parse(parseArgs({ options: { root: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } } }).values);

const server = createArtifactsServer(args);
server.listen(args.port, args.host, () => console.log(`artifacts: serving ${args.root} on http://${args.host}:${args.port}`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.close(() => process.exit(0)));
