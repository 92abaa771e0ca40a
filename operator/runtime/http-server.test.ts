import { describe, expect, it } from '@jest/globals';
import { startHttpServer } from './http-server.ts';
import { silentLogger } from './logger.ts';

describe('startHttpServer', () => {
  it('writes a body given as chunks, and none for HEAD', async () => {
    let chunksTaken = 0;
    const server = await startHttpServer({
      name: 'test', bindAddress: { host: '127.0.0.1', port: 0 }, logger: silentLogger(),
      routes: {
        '/chunks': async () => ({
          status: 200,
          body: (function* () {
            for (let n = 0; n < 3; n++) {
              chunksTaken += 1;
              yield `${'x'.repeat(100_000)}${n}\n`;
            }
          })(),
        }),
      },
    });
    try {
      const url = `http://127.0.0.1:${server.address.port}/chunks`;
      const body = await (await fetch(url)).text();
      expect(body).toHaveLength(3 * 100_002);
      expect(body.split('\n').map((line) => line.slice(-1))).toEqual(['0', '1', '2', '']);
      chunksTaken = 0;
      const head = await fetch(url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(chunksTaken).toBe(0);
    } finally {
      await server.close();
    }
  });
});
