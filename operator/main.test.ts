import { describe, expect, it } from '@jest/globals';
import { runOperator } from './main.ts';

describe('operator start-up', () => {
  it('refuses to start on bad settings, naming them', async () => {
    const errors: string[] = [];
    const code = await runOperator({ argv: ['--provisioning-limit=none'], env: {}, stderr: (text) => errors.push(text) });
    expect(code).toBe(2);
    expect(errors.join('')).toContain('PROVISIONING_LIMIT (--provisioning-limit): expected an integer');
  });

  it('prints usage for --help', async () => {
    const out: string[] = [];
    expect(await runOperator({ argv: ['--help'], env: {}, stdout: (text) => out.push(text) })).toBe(0);
    expect(out.join('')).toContain('--ironic-endpoint / IRONIC_ENDPOINT');
  });
});
