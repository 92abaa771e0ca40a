import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '../runtime/index.ts';
import { reviewDataImage } from './dataimage-validator.ts';

const deps = { logger: silentLogger() };
const image = (url: string) => ({ apiVersion: 'metal3.io/v1alpha1', kind: 'DataImage', metadata: { name: 'h', namespace: 'n' }, spec: { url } });

describe('reviewDataImage', () => {
  it('allows the URL schemes BMO allows', () => {
    for (const url of ['http://127.0.0.1/data.iso', 'https://images.example/data.iso', 'ftp://127.0.0.1/data.iso']) {
      expect(reviewDataImage({ uid: 'u', operation: 'CREATE', object: image(url) }, deps).response).toEqual({ uid: 'u', allowed: true });
    }
  });

  it('denies a bad URL with BMO\'s message, as a cause on spec.url', () => {
    const { response } = reviewDataImage({ uid: 'u1', operation: 'UPDATE', object: image('file:///data.iso'), oldObject: image('http://127.0.0.1/a.iso') }, deps);
    const message = 'URL "file:///data.iso" is invalid: invalid scheme in URL, "file" not allowed';
    expect(response).toEqual({
      uid: 'u1', allowed: false,
      status: { code: 403, reason: 'Forbidden', message, details: { causes: [{ type: 'FieldValueForbidden', field: 'spec.url', message }] } },
    });
    expect(reviewDataImage({ uid: 'u2', operation: 'CREATE', object: image('data.iso') }, deps).response.status?.message)
      .toBe('URL "data.iso" is invalid: parse "data.iso": invalid URI for request');
    expect(reviewDataImage({ uid: 'u3', operation: 'CREATE', object: image('') }, deps).response.status?.message)
      .toBe('URL "" is invalid: parse "": empty url');
  });

  it('lets deletes through and denies what is no DataImage', () => {
    expect(reviewDataImage({ uid: 'u4', operation: 'DELETE', oldObject: image('file:///x') }, deps).response.allowed).toBe(true);
    expect(reviewDataImage({ uid: 'u5', operation: 'CREATE', object: { metadata: {}, spec: {} } }, deps).response.status?.message).toMatch(/^not a valid DataImage: spec\.url/);
  });
});
