import { describe, expect, it } from '@jest/globals';
import { hostClaimSchema } from '../api/hostclaim.ts';
import { silentLogger } from '../runtime/index.ts';
import { reviewHostClaim, validateHostClaim } from './hostclaim-validator.ts';

const claim = (spec: Record<string, unknown>, annotations: Record<string, string> = {}) =>
  hostClaimSchema.parse({ apiVersion: 'metal3.io/v1alpha1', kind: 'HostClaim', metadata: { namespace: 'tenant', name: 'c', annotations }, spec: { poweredOn: false, ...spec } });
const messages = (spec: Record<string, unknown>, annotations: Record<string, string> = {}) => validateHostClaim(claim(spec, annotations)).map((violation) => violation.message);

describe('the HostClaim webhook', () => {
  it('accepts BMO\'s sample and selectors with its operators', () => {
    expect(messages({
      hostSelector: { matchLabels: { 'example.com/role': 'web' }, inNamespace: 'infra',
        matchExpressions: [{ key: 'zone', operator: 'in', values: ['a', 'b'] }, { key: 'gpu', operator: '!', values: [] }, { key: 'rack', operator: '==', values: ['r1'] }] },
      image: { url: 'http://127.0.0.1/os.raw', checksum: 'abc', checksumType: 'sha256', format: 'raw' },
    }, { 'reboot.metal3.io/maintenance': '{"mode":"soft"}' })).toEqual([]);
  });

  it('refuses what BMO refuses, in BMO\'s words', () => {
    expect(messages({ hostSelector: { matchLabels: { 'bad key!': 'x' } } })).toEqual([
      'bad key!=x: name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    ]);
    expect(messages({ hostSelector: { matchExpressions: [
      { key: 'zone', operator: '=', values: ['a', 'b'] },
      { key: 'zone', operator: 'notin', values: [] },
      { key: 'zone', operator: 'exists', values: ['a'] },
      { key: 'cpu', operator: 'gt', values: ['4'] },
      { key: 'zone', operator: 'In', values: ['a'] },
    ] } })).toEqual([
      'matchExpr 1: exactly one value for operator = in match expression on label key zone',
      'matchExpr 2: At least one value in list for operator notin in match expression on label key zone',
      'matchExpr 3: values not authorized for operator exists in match expression on label key zone',
      'matchExpr 4: invalid operation gt in match expression on label key cpu',
      'matchExpr 5: invalid operation In in match expression on label key zone',
    ]);
    expect(messages({}, { 'reboot.metal3.io': '{"mode":"gentle"}' })).toEqual(['invalid mode in the reboot.metal3.io annotation, allowed are "hard", "soft" or ""']);
    expect(messages({ image: { url: 'file:///os.raw', checksum: 'abc' } })[0]).toBe('image URL file:///os.raw is invalid: invalid scheme in URL, "file" not allowed');
  });

  it('answers a review: create and update checked, delete allowed', () => {
    const object = { apiVersion: 'metal3.io/v1alpha1', kind: 'HostClaim', metadata: { namespace: 'tenant', name: 'c' }, spec: { poweredOn: false, hostSelector: { matchExpressions: [{ key: 'zone', operator: 'near', values: [] }] } } };
    for (const operation of ['CREATE', 'UPDATE'] as const) {
      expect(reviewHostClaim({ uid: 'u', operation, object, oldObject: object }, { logger: silentLogger() }).response).toMatchObject({
        allowed: false, status: { code: 403, message: 'matchExpr 1: invalid operation near in match expression on label key zone' },
      });
    }
    expect(reviewHostClaim({ uid: 'u', operation: 'DELETE', oldObject: object }, { logger: silentLogger() }).response.allowed).toBe(true);
  });
});
