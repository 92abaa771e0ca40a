import { describe, expect, it } from '@jest/globals';
import { buildQuery, fillRoute, markerFromNextLink } from './request-url.ts';

describe('request URLs', () => {
  it('fills route templates, keeping BMO node names readable', () => {
    expect(fillRoute('/v1/nodes/{node_ident}/states/provision', { node_ident: 'metal3~worker-0' })).toBe(
      '/v1/nodes/metal3~worker-0/states/provision',
    );
    expect(fillRoute('/v1/nodes/{node_ident}', { node_ident: 'a/b c' })).toBe('/v1/nodes/a%2Fb%20c');
    expect(() => fillRoute('/v1/nodes/{node_ident}', {})).toThrow(/missing path parameter node_ident/);
    expect(() => fillRoute('/v1/nodes/{node_ident}', { node_ident: '' })).toThrow(/missing path parameter/);
  });

  it('joins lists with commas and writes booleans as Ironic parses them', () => {
    expect(buildQuery({ fields: ['uuid', 'provision_state'], detail: true, limit: 5, marker: undefined, owner: null })).toBe(
      '?fields=uuid%2Cprovision_state&detail=true&limit=5',
    );
    expect(buildQuery({ shard: [] })).toBe('');
    expect(buildQuery(undefined)).toBe('');
  });

  it('takes only the marker from a next link', () => {
    expect(markerFromNextLink('http://public.example:6385/v1/nodes?fields=uuid&limit=2&marker=abc')).toBe('abc');
    expect(markerFromNextLink('/v1/nodes?limit=2')).toBeUndefined();
    expect(markerFromNextLink(undefined)).toBeUndefined();
  });
});
