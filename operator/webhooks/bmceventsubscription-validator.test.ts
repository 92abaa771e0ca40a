import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '../runtime/index.ts';
import { reviewBMCEventSubscription } from './bmceventsubscription-validator.ts';
import { destinationProblem } from './destination-problem.ts';

const deps = { logger: silentLogger() };
const subscription = (spec: Record<string, unknown>, namespace = 'n') => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'BMCEventSubscription', metadata: { name: 's', namespace }, spec,
});
const good = { hostName: 'host-0', destination: 'https://127.0.0.1:9000/events', context: 'c', httpHeadersRef: { name: 'headers', namespace: 'n' } };
const review = (operation: 'CREATE' | 'UPDATE', object: unknown, oldObject?: unknown) =>
  reviewBMCEventSubscription({ uid: 'u', operation, namespace: 'n', object, ...(oldObject ? { oldObject } : {}) }, deps).response;

describe('reviewBMCEventSubscription', () => {
  it('allows a subscription BMO allows', () => {
    expect(review('CREATE', subscription(good))).toEqual({ uid: 'u', allowed: true });
    expect(review('CREATE', subscription({ hostName: 'h', destination: 'http://127.0.0.1/' }))).toEqual({ uid: 'u', allowed: true });
  });

  it('denies with BMO\'s messages, every broken rule at once, each as a cause on its field', () => {
    const response = review('CREATE', subscription({ httpHeadersRef: { name: 'headers', namespace: 'other' } }));
    const messages = ['hostName cannot be empty', 'httpHeadersRef secret must be in the same namespace as the BMCEventSubscription', 'destination cannot be empty'];
    expect(response.status?.message).toBe(`[${messages.join(', ')}]`);
    expect(response.status?.details?.causes.map((cause) => cause.field)).toEqual(['spec.hostName', 'spec.httpHeadersRef', 'spec.destination']);
    expect(review('CREATE', subscription({ ...good, destination: 'http://127.0.0.1:9000' })).status?.message).toBe('hostname-only destination must have a trailing slash');
    expect(review('CREATE', subscription({ ...good, destination: 'events' })).status?.message).toBe('destination is invalid: parse "events": invalid URI for request');
    // BMO's rule wants the namespace spelled out.
    expect(review('CREATE', subscription({ ...good, httpHeadersRef: { name: 'headers' } })).allowed).toBe(false);
  });

  it('refuses any change of the spec, and lets metadata and status changes through', () => {
    const changed = review('UPDATE', subscription({ ...good, context: 'other' }), subscription(good));
    expect(changed).toMatchObject({ allowed: false, status: { message: 'subscriptions cannot be updated, please recreate it' } });
    const finalized = { ...subscription(good), metadata: { name: 's', namespace: 'n', finalizers: ['bmceventsubscription.metal3.io'] }, status: { subscriptionID: '1' } };
    expect(review('UPDATE', finalized, subscription(good)).allowed).toBe(true);
  });

  it('lets deletes through and denies what is no BMCEventSubscription', () => {
    expect(reviewBMCEventSubscription({ uid: 'u', operation: 'DELETE', oldObject: subscription({}) }, deps).response.allowed).toBe(true);
    expect(review('CREATE', { metadata: {}, spec: { hostName: 3 } }).status?.message).toMatch(/^not a valid BMCEventSubscription: spec\.hostName/);
  });
});

describe('destinationProblem (Go\'s url.ParseRequestURI)', () => {
  it('accepts absolute URLs with a path and absolute paths', () => {
    for (const destination of ['http://127.0.0.1/', 'https://user@hooks.example:8443/a?b=c', '/events']) expect(destinationProblem(destination)).toBeUndefined();
  });

  it('words the rest as Go does', () => {
    expect(destinationProblem('http://hooks.example')).toBe('hostname-only destination must have a trailing slash');
    // Go takes `mailto:x` as an opaque URL, without a path.
    expect(destinationProblem('mailto:ops@example')).toBe('hostname-only destination must have a trailing slash');
    expect(destinationProblem('http://hooks.example?x=1')).toBe('hostname-only destination must have a trailing slash');
    expect(destinationProblem('http://h:80:80/')).toBe('destination is invalid: parse "http://h:80:80/": invalid port ":80:80" after host');
    expect(destinationProblem('http://h/%zz')).toBe('destination is invalid: parse "http://h/%zz": invalid URL escape "%zz"');
    expect(destinationProblem('http://[zz]/')).toBe(String.raw`destination is invalid: parse "http://[zz]/": invalid host: ParseAddr("zz"): unable to parse IP`);
    expect(destinationProblem('://x/')).toBe('destination is invalid: parse "://x/": missing protocol scheme');
    expect(destinationProblem('http://a b/')).toBe('destination is invalid: parse "http://a b/": invalid character " " in host name');
    expect(destinationProblem('http://a/\n')).toBe('destination is invalid: parse "http://a/\\n": net/url: invalid control character in URL');
  });
});
