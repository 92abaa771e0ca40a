import { describe, it, expect } from '@jest/globals';
import { requestTarget } from './request-target.ts';

describe('requestTarget', () => {
  it.each([
    ['GET', '/apis/metal3.io/v1alpha1/namespaces/ns/baremetalhosts/h', undefined, { verb: 'get', group: 'metal3.io', resource: 'baremetalhosts' }],
    ['GET', '/apis/metal3.io/v1alpha1/namespaces/ns/baremetalhosts', undefined, { verb: 'list', group: 'metal3.io', resource: 'baremetalhosts' }],
    ['GET', '/apis/metal3.io/v1alpha1/baremetalhosts', { watch: true }, { verb: 'watch', group: 'metal3.io', resource: 'baremetalhosts' }],
    ['PATCH', '/apis/metal3.io/v1alpha1/namespaces/ns/baremetalhosts/h/status', undefined, { verb: 'patch', group: 'metal3.io', resource: 'baremetalhosts/status' }],
    ['PUT', '/api/v1/namespaces/ns/secrets/s', undefined, { verb: 'update', group: '', resource: 'secrets' }],
    ['POST', '/apis/events.k8s.io/v1/namespaces/ns/events', undefined, { verb: 'create', group: 'events.k8s.io', resource: 'events' }],
    ['DELETE', '/api/v1/namespaces/ns/pods', undefined, { verb: 'deletecollection', group: '', resource: 'pods' }],
    ['DELETE', '/api/v1/namespaces/ns', undefined, { verb: 'delete', group: '', resource: 'namespaces' }],
    ['GET', '/api/v1/namespaces', undefined, { verb: 'list', group: '', resource: 'namespaces' }],
    ['GET', '/version', undefined, { verb: 'other', group: '', resource: '' }],
  ] as const)('%s %s', (method, path, query, expected) => {
    expect(requestTarget({ method, path, ...(query ? { query } : {}) })).toEqual(expected);
  });

  it('takes a watch the client says is one, whatever the query', () => {
    expect(requestTarget({ method: 'GET', path: '/api/v1/secrets', watch: true }).verb).toBe('watch');
  });
});
