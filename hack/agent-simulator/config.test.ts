import { describe, expect, it } from '@jest/globals';
import { parseSimulatorConfig } from './config.ts';

const minimal = {
  listen: { port: 9985 },
  ironicUrl: 'http://127.0.0.1:6385',
  redfish: { url: 'http://127.0.0.1:8000' },
  systems: [{ uuid: '27946b59-9e44-4fa7-8e91-f3527a1ef094', name: 'fake', nics: [{ mac: '00:5C:52:31:3A:9C', ip: '172.22.0.100' }] }],
};

describe('parseSimulatorConfig', () => {
  it('fills in defaults and normalises MACs', () => {
    const config = parseSimulatorConfig(minimal);
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 9985 });
    expect(config).toMatchObject({
      bootDelayMs: 500,
      minHeartbeatIntervalMs: 1000,
      commandDelayMs: 1000,
      imageDownloadRetries: 2,
      agentVersion: '11.0.0',
    });
    expect(config.heartbeatIntervalMs).toBeUndefined();
    expect(config.systems[0]?.nics[0]?.mac).toBe('00:5c:52:31:3a:9c');
  });

  it('explains what is wrong', () => {
    expect(() => parseSimulatorConfig({ ...minimal, systems: [{ uuid: 'x', name: 'a', nics: [] }] })).toThrow(
      /invalid agent simulator config:[\s\S]*systems/,
    );
    expect(() =>
      parseSimulatorConfig({ ...minimal, systems: [...minimal.systems, { ...minimal.systems[0], name: 'again' }] }),
    ).toThrow('is listed twice');
  });
});
