import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { isAlive } from '../../../hack/stack/processes.ts';
import { stackDown, stackStatus, stackUp } from '../../../hack/stack/stack.ts';

function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolveAccepts) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolveAccepts(true);
    });
    socket.once('error', () => resolveAccepts(false));
  });
}

describe('stack up and down', () => {
  it('starts every component on loopback, and down leaves no process and nothing listening', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'metal3-ts-updown-'));
    try {
      const env = await stackUp({ stateDir, systems: 1, ironicBasicAuth: true, bmcBasicAuth: true });
      const status = stackStatus(stateDir);
      expect(status.components.map((component) => component.name).sort()).toEqual(
        ['agent-simulator', 'artifacts', 'etcd', 'ipmi-bmc', 'ironic', 'kube-apiserver', 'sushy-emulator', 'workload-apiserver'].sort());
      expect(status.components.every((component) => component.running)).toBe(true);
      const endpoints = [env.apiServerUrl, env.workload.apiServerUrl, env.etcdUrl, env.ironicUrl, env.sushyUrl, env.agentSimulatorUrl, env.artifactsUrl];
      for (const url of endpoints) expect(await accepts(url)).toBe(true);

      // http_basic: the credentials files work and anonymous calls are refused.
      expect(env.ironicAuth).toBeDefined();
      const auth = `Basic ${Buffer.from(`${env.ironicAuth!.username}:${env.ironicAuth!.password}`).toString('base64')}`;
      expect((await fetch(`${env.ironicUrl}/v1/nodes`, { headers: { authorization: auth } })).status).toBe(200);
      expect((await fetch(`${env.ironicUrl}/v1/nodes`)).status).toBe(401);

      const stopped = await stackDown(stateDir);
      expect(stopped).toHaveLength(8);
      for (const component of status.components) expect(isAlive(component.pid)).toBe(false);
      for (const url of endpoints) expect(await accepts(url)).toBe(false);
      expect(stackStatus(stateDir).components).toEqual([]);
    } finally {
      await stackDown(stateDir);
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('refuses to start a second stack over a recorded one', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'metal3-ts-updown-'));
    try {
      await stackUp({ stateDir, systems: 1, ironicBasicAuth: false, bmcBasicAuth: false });
      await expect(stackUp({ stateDir, systems: 1, ironicBasicAuth: false, bmcBasicAuth: false }))
        .rejects.toThrow(/already recorded in .*state\.json/);
    } finally {
      await stackDown(stateDir);
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
