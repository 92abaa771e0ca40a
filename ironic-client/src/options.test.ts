import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { compileOptions, normalizeEndpoint } from './options.ts';

describe('options', () => {
  it.each([
    ['http://ironic:6385', 'http://ironic:6385'],
    ['http://ironic:6385/', 'http://ironic:6385'],
    ['https://ironic:6385/v1/', 'https://ironic:6385'],
    ['https://ironic:6385/v1', 'https://ironic:6385'],
    ['https://gw.example/baremetal/v1/', 'https://gw.example/baremetal'],
  ])('normalizes endpoint %s', (input, expected) => {
    expect(normalizeEndpoint(input)).toBe(expected);
  });

  it('rejects endpoints that are not plain http(s) URLs', () => {
    expect(() => normalizeEndpoint('ironic:6385')).toThrow(/must be http or https|not a URL/);
    expect(() => normalizeEndpoint('not a url')).toThrow(/not a URL/);
    expect(() => normalizeEndpoint('ftp://ironic')).toThrow(/must be http or https/);
    expect(() => normalizeEndpoint('http://u:p@ironic')).toThrow(/not in the endpoint URL/);
  });

  it('applies defaults once', async () => {
    const compiled = await compileOptions({ endpoint: 'http://ironic:6385/v1/' });
    expect(compiled).toMatchObject({ baseUrl: 'http://ironic:6385', timeoutMs: 30_000 });
    expect((await compiled.material.current()).authorization).toBeUndefined();
    compiled.material.close();
    expect(compiled.metricsRegistry).toBeInstanceOf(Registry);
    expect(compiled.userAgent).toBe('metal3-ts-ironic-client');
    await expect(compileOptions({ endpoint: 'http://ironic', timeoutMs: 0 })).rejects.toThrow(RangeError);
  });
});
