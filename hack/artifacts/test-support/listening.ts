import type { AddressInfo } from 'node:net';
import { createArtifactsServer, type ArtifactsServerOptions } from '../server.ts';

/** An artifacts server on a loopback port the kernel picks, for tests: its URL and how to stop it. */
export async function listeningArtifactsServer(options: Omit<ArtifactsServerOptions, 'host' | 'port'>): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createArtifactsServer({ ...options, host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
